// Copying a citation or bibliography: rich text (text/html) and plain text together, so Word and
// Google Docs keep the italics and a plain editor gets clean text. Browsers without ClipboardItem
// (or that refuse it) get the plain text alone.

export async function copyRich(html: string, text: string): Promise<'rich' | 'plain'> {
  const clipboard = navigator.clipboard;
  if (typeof ClipboardItem !== 'undefined' && clipboard?.write) {
    try {
      await clipboard.write([
        new ClipboardItem({
          'text/html': new Blob([html], { type: 'text/html' }),
          'text/plain': new Blob([text], { type: 'text/plain' }),
        }),
      ]);
      return 'rich';
    } catch {
      // Fall through to plain text: some hosts allow writeText but not write.
    }
  }
  await clipboard.writeText(text);
  return 'plain';
}

export async function copyText(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
}
