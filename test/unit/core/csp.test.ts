import { describe, expect, it } from 'vitest';
import { buildCsp } from '../../../electron/core/csp';

describe('the renderer CSP', () => {
  it('allows workers only from the app itself, and scripts without inline code or eval', () => {
    const csp = buildCsp();
    const directives = new Map(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)] as const));
    expect(directives.get('worker-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(csp).not.toMatch(/unsafe-eval|blob:\s*;?\s*$/);
  });
});
