// What a drop on the details column names as local files (plain .ts: it is pure, and tested in Node).

/**
 * The local paths a drop carries: file:// URIs (text/uri-list, as file managers provide) or a typed
 * absolute path (text/plain). Anything else (http links, relative names) is not a local file.
 */
export function droppedPaths(data: Pick<DataTransfer, 'getData'>): string[] {
  const uris = data
    .getData('text/uri-list')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const fromUris = uris.flatMap((uri) => {
    try {
      const url = new URL(uri);
      if (url.protocol !== 'file:' || (url.host !== '' && url.host !== 'localhost')) return [];
      const path = decodeURIComponent(url.pathname);
      // file:///C:/papers/a.pdf is C:/papers/a.pdf on Windows.
      return [/^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path];
    } catch {
      return [];
    }
  });
  if (fromUris.length > 0) return fromUris;
  const text = data.getData('text/plain').trim();
  return text !== '' && !text.includes('\n') && (text.startsWith('/') || /^[A-Za-z]:[\\/]/.test(text)) ? [text] : [];
}
