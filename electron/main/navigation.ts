// Where the renderer may go: nowhere. Links to the web open in the OS browser; everything else is refused.

export type ExternalDecision = 'open-external' | 'refuse';

export function decideExternal(url: string): ExternalDecision {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' ? 'open-external' : 'refuse';
  } catch {
    return 'refuse';
  }
}
