// The word processor's Document Preferences (Zotero's setDocPrefs dialog), as a page of the picker's
// kind: served on loopback under the picker's CSP, reached only with its session's token, answered
// through the same …/done and …/cancel. It offers the built-in and installed styles, the citation
// locale, footnotes or endnotes for a note style, and whether citations update as they are inserted.
// Keyboard-first: the style list has the focus, Enter saves, Esc cancels. Text is set with textContent.
import { CITATION_LOCALES_BY_NAME, isCitationLocale, localeLabel } from '../../../shared/model/settings';
import type { DocPrefs } from './session';

/** What the page loads: the choices, and the document's preferences now (null: a new document). */
export interface PrefsOptions {
  styles: { id: string; title: string; note: boolean }[];
  locales: { tag: string; name: string }[];
  current: Required<Omit<DocPrefs, 'locale'>> & { locale: string };
  /** Whether the word processor has notes (Google Docs: footnotes only). */
  notes: ('footnotes' | 'endnotes')[];
}

export function prefsOptions(
  styles: PrefsOptions['styles'],
  current: DocPrefs,
  notes: PrefsOptions['notes'],
): PrefsOptions {
  return {
    styles,
    locales: CITATION_LOCALES_BY_NAME.map((tag) => ({ tag, name: localeLabel(tag) })),
    current: {
      styleID: current.styleID,
      locale: current.locale ?? '',
      noteType: current.noteType,
      delayCitationUpdates: current.delayCitationUpdates === true,
    },
    notes,
  };
}

/** The page's answer, checked against what it was offered; throws with what is wrong. */
export function parsePrefsAnswer(body: unknown, offered: PrefsOptions): DocPrefs {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== 'object') throw new Error('expected { styleID, locale, noteType, delayCitationUpdates }');
  const { styleID, locale, noteType, delayCitationUpdates } = b;
  if (typeof styleID !== 'string' || !offered.styles.some((s) => s.id === styleID))
    throw new Error(`styleID must be one of the ${offered.styles.length} styles offered`);
  if (locale !== undefined && locale !== '' && (typeof locale !== 'string' || !isCitationLocale(locale)))
    throw new Error('locale must be one of the citation locales, or empty for the style’s own');
  if (noteType !== 0 && noteType !== 1 && noteType !== 2) throw new Error('noteType must be 0, 1 or 2');
  if (delayCitationUpdates !== undefined && typeof delayCitationUpdates !== 'boolean')
    throw new Error('delayCitationUpdates must be true or false');
  return {
    styleID,
    ...(typeof locale === 'string' && locale !== '' ? { locale } : {}),
    noteType,
    delayCitationUpdates: delayCitationUpdates === true,
  };
}

export const PREFS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Citewise: document preferences</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/citewise/picker/app.css">
<link rel="stylesheet" href="/citewise/picker/prefs.css">
<script src="/citewise/picker/prefs.js" defer></script>
</head>
<body>
<main>
  <h1>Document preferences</h1>
  <p class="help" id="help">How this document's citations look. <kbd>Enter</kbd> saves, <kbd>Esc</kbd> cancels.</p>
  <form id="form">
    <label for="style">Citation style</label>
    <select id="style" size="10" aria-describedby="help"></select>
    <p class="help" id="style-help">Built-in styles and the ones you installed (Settings → Citations → Browse styles).</p>
    <label for="locale">Language</label>
    <select id="locale"></select>
    <fieldset id="notes" hidden>
      <legend>Citations in</legend>
      <label><input type="radio" name="notes" value="1" id="footnotes"> Footnotes</label>
      <label><input type="radio" name="notes" value="2" id="endnotes"> Endnotes</label>
    </fieldset>
    <p id="in-text" class="help"></p>
    <label class="check"><input type="checkbox" id="auto"> Update citations automatically</label>
    <p class="help" id="auto-help">Off: a citation you insert is formatted on its own and marked; the others and the bibliography are updated when you choose Refresh. Useful in long documents.</p>
    <p id="status" role="status" aria-live="polite"></p>
    <p class="actions"><button id="done" type="submit">Save</button> <button id="cancel" type="button">Cancel</button></p>
  </form>
</main>
</body>
</html>
`;

export const PREFS_CSS = `
form { display: grid; gap: .35rem; max-width: 36rem; }
label { font-weight: 600; margin-top: .5rem; }
label.check, fieldset label { font-weight: 400; }
select { font: inherit; padding: .25rem; background: Field; color: FieldText; }
#style { width: 100%; }
fieldset { border: 1px solid GrayText; border-radius: 4px; margin: .5rem 0 0; }
fieldset label { margin-right: 1rem; }
.help { margin: 0; }
`;

export const PREFS_JS = `'use strict';
(function () {
  var parts = location.pathname.split('/');
  var id = parts[parts.length - 1];
  var token = location.hash.slice(1);
  history.replaceState(null, '', location.pathname);
  var base = '/citewise/picker/' + encodeURIComponent(id);
  var styleEl = document.getElementById('style');
  var localeEl = document.getElementById('locale');
  var notesEl = document.getElementById('notes');
  var inText = document.getElementById('in-text');
  var autoEl = document.getElementById('auto');
  var statusEl = document.getElementById('status');
  var options = null;
  var finished = false;

  function call(path, init) {
    init = init || {};
    init.headers = Object.assign({ 'X-Citewise-Picker': token }, init.headers || {});
    return fetch(base + path, init);
  }
  function option(value, text) {
    var o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    return o;
  }
  function styleOf(id) {
    for (var i = 0; i < options.styles.length; i++) if (options.styles[i].id === id) return options.styles[i];
    return null;
  }
  function showNotes() {
    var s = styleOf(styleEl.value);
    var note = !!(s && s.note);
    notesEl.hidden = !note || options.notes.length === 0;
    document.getElementById('endnotes').disabled = options.notes.indexOf('endnotes') < 0;
    inText.textContent = note && options.notes.length === 0 ? 'This word processor has no notes: the note style\\'s citations stay in the text.' : '';
  }
  function end(kind) {
    if (finished) return;
    var init = { method: 'POST' };
    if (kind === 'done') {
      var s = styleOf(styleEl.value);
      var checked = document.querySelector('input[name=notes]:checked');
      init.headers = { 'Content-Type': 'application/json' };
      init.body = JSON.stringify({
        styleID: styleEl.value,
        locale: localeEl.value,
        noteType: s && s.note && options.notes.length ? Number(checked ? checked.value : 1) : 0,
        delayCitationUpdates: !autoEl.checked,
      });
    }
    finished = true;
    call('/' + kind, init).then(function (r) {
      if (!r.ok) { finished = false; return r.text().then(function (t) { statusEl.textContent = 'Citewise refused the answer: ' + t; }); }
      statusEl.textContent = kind === 'done' ? 'Saved. You can close this tab.' : 'Cancelled. You can close this tab.';
      window.close();
    }, function () { finished = false; statusEl.textContent = 'Citewise is not answering.'; });
  }

  call('/options').then(function (r) { return r.json(); }).then(function (o) {
    options = o;
    o.styles.forEach(function (s) { styleEl.appendChild(option(s.id, s.title)); });
    localeEl.appendChild(option('', 'The style\\'s own language'));
    o.locales.forEach(function (l) { localeEl.appendChild(option(l.tag, l.name)); });
    styleEl.value = o.current.styleID;
    if (styleEl.selectedIndex < 0 && o.styles.length) styleEl.selectedIndex = 0;
    localeEl.value = o.current.locale;
    (o.current.noteType === 2 ? document.getElementById('endnotes') : document.getElementById('footnotes')).checked = true;
    autoEl.checked = !o.current.delayCitationUpdates;
    showNotes();
    styleEl.focus();
  }, function () { statusEl.textContent = 'Citewise is not answering.'; });

  styleEl.addEventListener('change', showNotes);
  document.getElementById('form').addEventListener('submit', function (e) { e.preventDefault(); end('done'); });
  styleEl.addEventListener('keydown', function (e) { if (e.key === 'Enter') { e.preventDefault(); end('done'); } });
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape') { e.preventDefault(); end('cancel'); } });
  document.getElementById('cancel').addEventListener('click', function () { end('cancel'); });
})();
`;
