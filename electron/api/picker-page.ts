// The picker page (headless mode and browser mode): static HTML, script and style served by the API
// server under a strict CSP (nothing inline, nothing from elsewhere). Keyboard-first: type to search
// the library (its fielded, ranked search), Up/Down to choose, Enter adds, Enter on an empty box
// finishes, Esc cancels. Every text from the library is set with textContent, never as markup.

export const PICKER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'none'; font-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const PICKER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Cite with Citewise</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/citewise/picker/app.css">
<script src="/citewise/picker/app.js" defer></script>
</head>
<body>
<main>
  <h1>Cite with Citewise</h1>
  <p class="help" id="help">Type to search. <kbd>↑</kbd><kbd>↓</kbd> choose, <kbd>Enter</kbd> adds, <kbd>Enter</kbd> on an empty box finishes, <kbd>Esc</kbd> cancels. Search fields work too: <code>author:smith year:2020</code>.</p>
  <input id="q" type="search" autocomplete="off" spellcheck="false" aria-label="Search the library" aria-describedby="help" aria-controls="hits" placeholder="Search by author, title, year, key…">
  <p id="status" role="status" aria-live="polite"></p>
  <ol id="hits" role="listbox" aria-label="Matches"></ol>
  <h2 id="picked-title">Citation</h2>
  <ol id="picks" aria-labelledby="picked-title"></ol>
  <p class="actions"><button id="done" type="button">Insert citation</button> <button id="cancel" type="button">Cancel</button></p>
</main>
</body>
</html>
`;

export const PICKER_CSS = `
:root { color-scheme: light dark; font: 15px/1.4 system-ui, sans-serif; }
body { margin: 0; background: Canvas; color: CanvasText; }
main { max-width: 52rem; margin: 1.5rem auto; padding: 0 1rem; }
h1 { font-size: 1.2rem; margin: 0 0 .25rem; }
h2 { font-size: 1rem; margin: 1rem 0 .25rem; }
.help { color: #555; margin: 0 0 .5rem; font-size: .9rem; }
@media (prefers-color-scheme: dark) { .help { color: #bbb; } }
kbd, code { font: .85rem ui-monospace, monospace; border: 1px solid GrayText; border-radius: 3px; padding: 0 .2rem; }
#q { width: 100%; box-sizing: border-box; font-size: 1.1rem; padding: .5rem; }
#status { min-height: 1.2em; margin: .25rem 0; font-size: .9rem; }
ol { list-style: none; padding: 0; margin: 0; }
#hits li { padding: .4rem .5rem; border-bottom: 1px solid color-mix(in srgb, GrayText 30%, transparent); cursor: pointer; }
#hits li[aria-selected="true"] { background: Highlight; color: HighlightText; }
.title { font-weight: 600; }
.meta, .tallies { font-size: .85rem; }
.key { font-family: ui-monospace, monospace; }
.badge { display: inline-block; font-size: .75rem; font-weight: 700; padding: 0 .35rem; border-radius: 3px; margin-left: .4rem; }
.badge.retracted { background: #b00020; color: white; }
.badge.notice { background: #8a5a00; color: white; }
#picks li { display: flex; flex-wrap: wrap; gap: .3rem; align-items: center; padding: .3rem 0; }
#picks input[type=text] { width: 7rem; }
#picks .key { font-weight: 700; }
.actions { margin-top: 1rem; }
`;

export const PICKER_JS = `'use strict';
(function () {
  var parts = location.pathname.split('/');
  var id = parts[parts.length - 1];
  var token = location.hash.slice(1);
  history.replaceState(null, '', location.pathname);
  var base = '/citewise/picker/' + encodeURIComponent(id);
  var q = document.getElementById('q');
  var hitsEl = document.getElementById('hits');
  var picksEl = document.getElementById('picks');
  var statusEl = document.getElementById('status');
  var hits = [];
  var active = -1;
  var picks = [];
  var seq = 0;
  var timer = null;
  var finished = false;
  var shown = '';
  var LABELS = ['page', 'chapter', 'section', 'paragraph', 'figure', 'volume', 'line', 'note', 'verse'];

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function call(path, init) {
    init = init || {};
    init.headers = Object.assign({ 'X-Citewise-Picker': token }, init.headers || {});
    return fetch(base + path, init);
  }
  function setStatus(text) { statusEl.textContent = text; }

  function tallies(h) {
    if (h.evidence && h.evidence.state === 'found') {
      return h.evidence.supporting + ' supporting · ' + h.evidence.contrasting + ' contrasting · ' + h.evidence.mentioning + ' mentioning';
    }
    if (h.evidence && h.evidence.state === 'unknown') return 'no citation statements known';
    return 'tallies not fetched';
  }

  function renderHits() {
    hitsEl.textContent = '';
    hits.forEach(function (h, i) {
      var li = el('li');
      li.setAttribute('role', 'option');
      li.id = 'hit-' + i;
      li.setAttribute('aria-selected', i === active ? 'true' : 'false');
      var title = el('div', 'title', h.title || '(no title)');
      if (h.retracted === true) title.appendChild(el('span', 'badge retracted', 'Retracted'));
      else if (h.notice) title.appendChild(el('span', 'badge notice', h.notice));
      li.appendChild(title);
      li.appendChild(el('div', 'meta', [h.creators, h.year, h.container].filter(Boolean).join(' · ')));
      var line = el('div', 'tallies', tallies(h) + ' · ');
      line.appendChild(el('span', 'key', '@' + h.citationKey));
      li.appendChild(line);
      li.addEventListener('click', function () { active = i; add(); });
      hitsEl.appendChild(li);
    });
    if (active >= 0) q.setAttribute('aria-activedescendant', 'hit-' + active);
    else q.removeAttribute('aria-activedescendant');
  }

  function renderPicks() {
    picksEl.textContent = '';
    picks.forEach(function (p, i) {
      var li = el('li');
      function field(name, label) {
        var input = el('input');
        input.type = 'text';
        input.value = p[name] || '';
        input.setAttribute('aria-label', label + ' for @' + p.citationKey);
        input.placeholder = label;
        input.addEventListener('input', function () { p[name] = input.value; });
        input.addEventListener('keydown', function (e) { if (e.key === 'Enter') { e.preventDefault(); q.focus(); } });
        return input;
      }
      li.appendChild(field('prefix', 'Prefix'));
      li.appendChild(el('span', 'key', '@' + p.citationKey));
      var select = el('select');
      select.setAttribute('aria-label', 'Locator label for @' + p.citationKey);
      LABELS.forEach(function (l) { var o = el('option', null, l); o.value = l; select.appendChild(o); });
      select.value = p.label || 'page';
      select.addEventListener('change', function () { p.label = select.value; });
      li.appendChild(select);
      li.appendChild(field('locator', 'Locator'));
      li.appendChild(field('suffix', 'Suffix'));
      var box = el('input');
      box.type = 'checkbox';
      box.checked = !!p.suppressAuthor;
      box.id = 'suppress-' + i;
      box.addEventListener('change', function () { p.suppressAuthor = box.checked; });
      var lab = el('label', null, 'Suppress author');
      lab.htmlFor = box.id;
      li.appendChild(box);
      li.appendChild(lab);
      var remove = el('button', null, 'Remove');
      remove.type = 'button';
      remove.setAttribute('aria-label', 'Remove @' + p.citationKey);
      remove.addEventListener('click', function () { picks.splice(i, 1); renderPicks(); q.focus(); });
      li.appendChild(remove);
      picksEl.appendChild(li);
    });
  }

  function search() {
    clearTimeout(timer);
    timer = null;
    var text = q.value.trim();
    var mine = ++seq;
    if (!text) { shown = ''; hits = []; active = -1; renderHits(); setStatus(picks.length ? 'Enter inserts the citation.' : ''); return Promise.resolve(); }
    return call('/search?q=' + encodeURIComponent(text)).then(function (r) {
      return r.json().then(function (body) { return { ok: r.ok, body: body }; });
    }).then(function (res) {
      if (mine !== seq) return;
      shown = text;
      if (!res.ok) { hits = []; active = -1; renderHits(); setStatus(res.body.error || 'The search failed.'); return; }
      hits = res.body.hits;
      active = hits.length ? 0 : -1;
      renderHits();
      setStatus(hits.length ? hits.length + (hits.length === 1 ? ' match' : ' matches') : 'No matches.');
    }, function () { if (mine === seq) setStatus('Citewise is not answering.'); });
  }

  function add() {
    var h = hits[active];
    if (!h) return;
    if (!picks.some(function (p) { return p.citationKey === h.citationKey; })) picks.push({ citationKey: h.citationKey, label: 'page' });
    q.value = '';
    hits = []; active = -1;
    renderHits(); renderPicks();
    setStatus('Added @' + h.citationKey + '. Enter on the empty box inserts the citation.');
    q.focus();
  }

  function end(kind) {
    if (finished) return;
    finished = true;
    var init = { method: 'POST' };
    if (kind === 'done') { init.headers = { 'Content-Type': 'application/json' }; init.body = JSON.stringify({ picks: picks }); }
    call('/' + kind, init).then(function (r) {
      setStatus(r.ok ? (kind === 'done' ? 'Sent to your editor. You can close this tab.' : 'Cancelled. You can close this tab.') : 'Citewise refused the answer.');
      q.disabled = true;
      window.close();
    }, function () { setStatus('Citewise is not answering.'); });
  }

  q.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(search, 120); });
  q.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowDown' && hits.length) { e.preventDefault(); active = Math.min(hits.length - 1, active + 1); renderHits(); }
    else if (e.key === 'ArrowUp' && hits.length) { e.preventDefault(); active = Math.max(0, active - 1); renderHits(); }
    else if (e.key === 'Enter') {
      e.preventDefault();
      if (q.value.trim() === '') end('done');
      // Typed faster than the search ran: add from the hits of what is in the box now.
      else if (q.value.trim() !== shown) search().then(add);
      else add();
    }
  });
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape') { e.preventDefault(); end('cancel'); } });
  document.getElementById('done').addEventListener('click', function () { end('done'); });
  document.getElementById('cancel').addEventListener('click', function () { end('cancel'); });
  q.focus();
})();
`;
