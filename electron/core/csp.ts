// The one Content-Security-Policy of the renderer, sent by the Electron shell and by host mode alike.
// Scripts only from the app itself: no inline scripts, no eval. Styles allow inline attributes because
// Svelte sets style attributes at run time; markup from outside never reaches the DOM as HTML anyway.

export function buildCsp(options: { connectSrc?: readonly string[] } = {}): string {
  const connect = ["'self'", ...(options.connectSrc ?? [])].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect}`,
    // Web Workers only from the app's own files (the graph layout worker); never blob: or data: URLs.
    "worker-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}
