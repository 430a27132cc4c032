// Saving a draft file: a download in browser mode, which the Electron shell turns into a save dialog.
export function download(name: string, content: string | Uint8Array<ArrayBuffer>, mime: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from a conversation's title: letters, digits, spaces and dashes, at most 60 characters. */
export function fileStem(title: string): string {
  return (
    title
      .replace(/[^\p{L}\p{N} _-]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 60)
      .trim() || 'draft'
  );
}
