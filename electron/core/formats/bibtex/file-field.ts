// The `file` field of a .bib entry, as the tools researchers migrate from write it:
// - Better BibTeX: one path as it is (`file = {/home/u/Zotero/storage/AB12CD34/Smith - 2020.pdf}`,
//   `{C:\Users\u\Zotero\storage\…\x.pdf}`), several joined by ";" with "\", ":", ";", "{", "}"
//   escaped by a backslash (`{C\:\\Users\\…\\a.pdf;files/Smith\:2020/b.pdf}`), or, in JabRef
//   format, `Title:path:mime-type` triples (`{Full Text PDF:/…/a.pdf:application/pdf}`);
// - JabRef: `Description:path:Type` triples joined by ";" (`{:papers/wei2005.pdf:PDF}`), the same
//   escapes, a bare path alone (`{wei2005.pdf}`), Windows paths written with or without escapes
//   (`desc:C\:\\test.pdf:PDF`, `desc:C:\test.pdf:PDF`), online links (`:http\://…:URL`);
// - Mendeley: `{:C$\backslash$:/Users/…/x.pdf:pdf}` and, on Linux, its paths without the leading
//   slash (`{:home/u/…/x.pdf:pdf}`).
// The grammar follows JabRef's FileFieldParser (description:link:type, escapes, the Windows-drive and
// XML-character cases), so a field JabRef reads is read the same way here.

export interface LinkedFile {
  description: string;
  /** The path (or URL) as the field gives it, unescaped. */
  link: string;
  /** "PDF", "application/pdf", "pdf", "text/html", "URL"… or ''. */
  type: string;
  /** An http(s), ftp or www link rather than a file. */
  online: boolean;
}

const ONLINE = /^(?:https?|ftp):\/\/|^www\./i;

/** The files a `file` field names, in order; an empty field names none. */
export function parseFileField(field: string): LinkedFile[] {
  const value = field.replace(/\$\\backslash\$/g, '\\');
  if (value.trim() === '') return [];
  if (ONLINE.test(value.trim()) && !/[;]/.test(value)) return [toFile(['', value.trim(), ''])];
  const files: LinkedFile[] = [];
  let parts: string[] = [];
  let current = '';
  let escaped = false;
  let windowsPath = false;
  let inXmlChar = false;
  const next = (): void => {
    current = '';
    windowsPath = false;
  };
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (!escaped && c === '\\') {
      if (windowsPath) current += c;
      else escaped = true;
      continue;
    }
    if (!escaped && c === '&' && !inXmlChar) {
      current += c;
      if (value[i + 1] === '#') inXmlChar = true;
    } else if (!escaped && inXmlChar && c === ';') {
      current += c;
      inXmlChar = false;
    } else if (!escaped && c === ':') {
      if ((parts.length === 1 && current.length === 1) || (current.length === 1 && value[i + 1] === '\\')) {
        // A drive letter: ":c:\test.pdf:PDF", or Zotero's bare "A:\zotero\paper.pdf".
        current += c;
        windowsPath = true;
      } else {
        parts.push(current);
        next();
      }
    } else if (!escaped && c === ';' && !inXmlChar) {
      parts.push(current);
      files.push(toFile(parts));
      parts = [];
      next();
    } else current += c;
    escaped = false;
  }
  if (current !== '') parts.push(current);
  if (parts.length > 0) files.push(toFile(parts));
  return files.filter((f) => f.link.trim() !== '');
}

/** description:link:type (a fourth part, JabRef's source URL, is not a file). */
function toFile(raw: string[]): LinkedFile {
  const parts = [...raw];
  while (parts.length < 3) parts.push('');
  let [description, link, type] = parts as [string, string, string];
  // Fewer parts than three: the one given is the link (JabRef: "file.pdf::", ":file.pdf", "::file.pdf").
  if (link === '' && description === '' && type !== '') [link, type] = [type, ''];
  else if (link === '' && description !== '' && type === '') [link, description] = [description, ''];
  link = link.trim();
  return { description, link, type: type.trim(), online: ONLINE.test(link) };
}

/** Whether a linked file is a PDF: by its type, else its name. */
export function isPdfLink(file: LinkedFile): boolean {
  if (file.type !== '') return /^(?:pdf|application\/pdf)$/i.test(file.type);
  return /\.pdf$/i.test(file.link);
}

/**
 * The `file` fields of a .bib's text, found without parsing it (for the import preview, which asks
 * where relative paths start before anything is imported): each braced or quoted value, in order.
 */
export function fileFieldValues(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[,{\s]file\s*=\s*([{"])/gi)) {
    const open = m[1]!;
    let depth = 1;
    let i = m.index + m[0].length;
    const start = i;
    for (; i < text.length && depth > 0; i++) {
      const c = text[i];
      if (c === '\\') i++;
      else if (open === '{' ? c === '{' : false) depth++;
      else if (c === (open === '{' ? '}' : '"')) depth--;
    }
    if (depth === 0) out.push(text.slice(start, i - 1));
  }
  return out;
}

/** Whether a linked path is relative to a folder (the .bib's): not absolute, not ~/, not a drive or a link. */
export function isRelativeLink(file: LinkedFile): boolean {
  const p = file.link;
  // Mendeley's home/… and Users/… are absolute paths that lost their leading slash.
  return !file.online && !/^(?:\/|~(?:[\\/]|$)|[A-Za-z]:[\\/]|\\\\|file:|home\/|Users\/)/i.test(p);
}
