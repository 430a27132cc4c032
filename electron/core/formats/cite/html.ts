// HTML from citeproc-js is safe by construction: it escapes every character of item text and emits
// only its own small set of tags (CSL-JSON's rich-text tags <i>, <b>, <sup>, <sub> and small caps among
// them). Item text comes from files and the service, so that is checked, not trusted: any tag or
// attribute outside citeproc's vocabulary means something slipped through, and the entry is shown as
// escaped text instead.
const TAG = /<[^>]*>?/g;
const ALLOWED = [
  /^<\/?(?:i|b|em|strong|sup|sub|span|div)>$/,
  /^<div class="csl-(?:entry|bib-body|left-margin|right-inline|indent|block)">$/,
  /^<span style="(?:font-(?:style|variant|weight):(?:normal|italic|oblique|small-caps|bold|light);|text-decoration:(?:underline|none);|vertical-align:(?:sup|sub|baseline);)+">$/,
  /^<span class="(?:nocase|nodecor)">$/,
];
const ENTITY = /&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi;

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function isSafeHtml(html: string): boolean {
  for (const tag of html.match(TAG) ?? []) if (!ALLOWED.some((re) => re.test(tag))) return false;
  return !html.replace(TAG, '').replace(ENTITY, '').includes('&');
}

/** The HTML when it stays within citeproc's vocabulary, else the same string escaped to inert text. */
export function assertSafeHtml(html: string): string {
  return isSafeHtml(html) ? html : escapeHtml(html);
}
