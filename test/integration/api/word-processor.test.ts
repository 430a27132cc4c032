// Zotero's word-processor integration over HTTP, played from the document's side exactly as the
// Google Docs plugin and the Zotero Connector do it (zotero-google-docs-integration
// src/connector/client.js Client.call; zotero-connectors src/common/integration/connectorIntegration.js):
// POST document/execCommand {command, docId}; each answer is the next call {command, arguments:
// [documentID, …]}; the plugin runs it and POSTs JSON.stringify(result) (which callMethod encodes as
// JSON once more) to document/respond, until Document.complete, which it does not answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedPick, PickSession } from '../../../electron/api/picker';
import { answerPicker, send, startFixture, type Fixture } from './helpers';

const CONNECTOR = {
  'Content-Type': 'application/json',
  'X-Zotero-Version': '5.0.175',
  'X-Zotero-Connector-API-Version': '3',
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  Origin: 'chrome-extension://ekhagklcjbdpajgpjgmbionohlpdbjgc',
};

interface Field {
  id: string;
  code: string;
  text: string;
  noteIndex: number;
}

/** A Google Docs document as the plugin presents it: links (fields) in order, a cursor, stored data. */
class GoogleDoc {
  fields: Field[] = [];
  data = '';
  /** The field the cursor is in (an id), or where a new field goes (an index into fields). */
  cursor: { inField?: string; at?: number } = {};
  calls: string[] = [];
  alerts: { text: string; icon: number; buttons: number }[] = [];
  /** The user's answer to each alert, in order (the plugin maps its buttons to Zotero's numbers). */
  alertAnswers: number[] = [];
  bibliographyStyle: unknown[] | null = null;
  #next = 1;
  completed = 0;

  constructor(readonly id = 'doc-1tab') {}

  text(): string[] {
    return this.fields.map((f) => f.text);
  }

  // The plugin's methods (client.js), answering as it answers.
  getActiveDocument() {
    return {
      documentId: this.id,
      outputFormat: 'html',
      supportedNotes: ['footnotes'],
      supportsImportExport: true,
      supportsTextInsertion: true,
      supportsCitationMerging: true,
      processorName: 'Google Docs',
    };
  }
  getDocumentData() {
    return this.data;
  }
  setDocumentData(data: string) {
    this.data = data;
  }
  activate() {}
  complete() {
    this.completed++;
  }
  displayAlert(text: string, icon: number, buttons: number) {
    this.alerts.push({ text, icon, buttons });
    return this.alertAnswers.shift() ?? 0;
  }
  getFields() {
    return this.fields.map((f) => ({ ...f }));
  }
  cursorInField() {
    const f = this.fields.find((x) => x.id === this.cursor.inField);
    return f ? { ...f } : false;
  }
  canInsertField() {
    return true;
  }
  insertField(_fieldType: string, noteType: number) {
    const field = { text: '{Citation}', code: '{}', id: `f${this.#next++}`, noteIndex: noteType ? 1 : 0 };
    this.fields.splice(this.cursor.at ?? this.fields.length, 0, field);
    return { ...field };
  }
  setBibliographyStyle(...args: unknown[]) {
    this.bibliographyStyle = args;
  }
  setText(fieldID: string, text: string) {
    // Google Docs keeps the text only (Zotero's HTTP client strips the HTML the same way).
    this.#field(fieldID).text = text
      .replace(/<[^>]*>/g, '')
      .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
      .replace(/&amp;/g, '&');
  }
  setCode(fieldID: string, code: string) {
    this.#field(fieldID).code = code;
  }
  delete(fieldID: string) {
    this.fields = this.fields.filter((f) => f.id !== fieldID);
  }
  removeCode(fieldID: string) {
    this.#field(fieldID).code = '';
  }
  select() {}
  convert(ids: string[], _type: string, noteTypes: number[]) {
    ids.forEach((id, i) => (this.#field(id).noteIndex = noteTypes[i] ? i + 1 : 0));
  }
  #field(id: string): Field {
    const f = this.fields.find((x) => x.id === id);
    if (!f) throw Object.assign(new Error(`Field ${id} not found`), { type: 'Connector Error' });
    return f;
  }
}

/** Runs one command as the Connector runs it; resolves when Document.complete arrives (or the server gives up). */
async function exec(f: Fixture, doc: GoogleDoc, command: string, opts: { stopAfter?: string } = {}): Promise<string> {
  let reply = await send(
    f.api.port,
    'POST',
    '/connector/document/execCommand',
    CONNECTOR,
    JSON.stringify({ command, docId: doc.id }),
  );
  for (;;) {
    if (reply.status !== 200) return `${reply.status} ${reply.body}`;
    const request = JSON.parse(reply.body) as { command: string; arguments: unknown[] };
    doc.calls.push(request.command);
    const [, ...args] = request.arguments;
    const method = request.command.split('.')[1]!;
    if (method === 'complete') {
      doc.complete();
      return 'complete';
    }
    if (opts.stopAfter === request.command) return 'stopped';
    let result: unknown;
    try {
      result = (doc as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!.apply(doc, args);
    } catch (e) {
      result = {
        error: (e as { type?: string }).type ?? 'Connector Error',
        message: (e as Error).message,
        stack: (e as Error).stack,
      };
    }
    const body = result === undefined || result === null ? 'null' : JSON.stringify(result);
    reply = await send(f.api.port, 'POST', '/connector/document/respond', CONNECTOR, JSON.stringify(body));
  }
}

interface PrefsOptions {
  styles: { id: string; title: string; note: boolean }[];
  locales: { tag: string; name: string }[];
  current: { styleID: string; locale: string; noteType: number; delayCitationUpdates: boolean };
  notes: string[];
}

/** Answers a Document Preferences page as the page does: loads its options, sends the choice (null: Cancel). */
async function answerPrefs(
  f: Fixture,
  session: PickSession,
  choose: (o: PrefsOptions) => unknown,
): Promise<{ options: PrefsOptions; status: number; body: string }> {
  const headers = {
    'X-Citewise-Picker': session.token,
    'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0',
    Origin: `http://127.0.0.1:${f.api.port}`,
  };
  const page = await send(f.api.port, 'GET', `/citewise/picker/${session.id}`, headers);
  expect(page.body).toContain('<h1>Document preferences</h1>');
  const options = JSON.parse(
    (await send(f.api.port, 'GET', `/citewise/picker/${session.id}/options`, headers)).body,
  ) as PrefsOptions;
  const answer = choose(options);
  if (answer === null) {
    const r = await send(f.api.port, 'POST', `/citewise/picker/${session.id}/cancel`, headers);
    return { options, status: r.status, body: r.body };
  }
  const body = JSON.stringify(answer);
  const r = await send(
    f.api.port,
    'POST',
    `/citewise/picker/${session.id}/done`,
    { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    body,
  );
  return { options, status: r.status, body: r.body };
}

/** Answers the next Document Preferences the command opens. */
async function prefs(f: Fixture, choose: (o: PrefsOptions) => unknown): Promise<PrefsOptions> {
  const session = (await f.nextPicker()) as OpenedPick;
  expect(session.kind).toBe('docprefs');
  const r = await answerPrefs(f, session, choose);
  expect(r.status).toBe(200);
  return r.options;
}

/** Answers the next picker the command opens, as the picker page does (a new document's preferences first, as they stand). */
async function pick(f: Fixture, picks: unknown[] | null): Promise<void> {
  const answered = await answerPicker(f.api.port, await citePicker(f), picks);
  expect(answered.status).toBe(200);
}

/** The next picker of items, a new document's preferences answered first as they stand. */
async function citePicker(f: Fixture): Promise<PickSession> {
  let session = (await f.nextPicker()) as OpenedPick;
  if (session.kind === 'docprefs') {
    const next = f.nextPicker();
    expect((await answerPrefs(f, session, (o) => o.current)).status).toBe(200);
    session = (await next) as OpenedPick;
  }
  expect(session.kind).toBe('cite');
  return session;
}

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
  const set = await f.core.invoke('settings.update', { citationStyle: 'apa', locale: 'en-US' });
  if (!set.ok) throw new Error(set.error.message);
}, 60_000);
afterAll(async () => f.close());

describe('word-processor integration over HTTP', () => {
  it('adds citations, then a bibliography, in a new document (Google Docs sequence)', async () => {
    const doc = new GoogleDoc();
    const running = exec(f, doc, 'addEditCitation');
    await pick(f, [{ citationKey: 'adams2001', locator: '5', label: 'page' }]);
    expect(await running).toBe('complete');
    expect(doc.calls.slice(0, 3)).toEqual([
      'Application.getActiveDocument',
      'Document.getDocumentData',
      'Document.cursorInField',
    ]);
    expect(doc.calls).toContain('Document.insertField');
    expect(doc.calls.slice(-3)).toEqual(['Document.setDocumentData', 'Document.activate', 'Document.complete']);
    expect(doc.text()).toEqual(['(Adams & Baker, 2001, p. 5)']);
    const code = JSON.parse(doc.fields[0]!.code.replace(/^ITEM CSL_CITATION /, '')) as {
      citationItems: { id: number; uris: string[]; itemData: { title: string; id: unknown }; locator: string }[];
      properties: { plainCitation: string };
    };
    expect(code.citationItems[0]!.uris[0]).toMatch(
      /^http:\/\/zotero\.org\/users\/local\/citewise\/items\/[23456789A-Z]{8}$/,
    );
    expect(code.citationItems[0]!.itemData.title).toBe('On Citing');
    expect(code.citationItems[0]!.itemData).toMatchObject({ id: code.citationItems[0]!.id });
    expect(typeof code.citationItems[0]!.id).toBe('number');
    expect(code.properties.plainCitation).toBe('(Adams & Baker, 2001, p. 5)');
    expect(doc.data).toMatch(
      /^<data data-version="3" zotero-version="7\.0\.0"><session id="[^"]+"\/><style id="http:\/\/www\.zotero\.org\/styles\/apa" locale="en-US" hasBibliography="1" bibliographyStyleHasBeenSet="0"\/><prefs><pref name="fieldType" value="Http"\/><\/prefs><\/data>$/,
    );

    // A second citation of another item, then the same item again with suppress-author.
    doc.cursor = { at: 1 };
    const second = exec(f, doc, 'addEditCitation');
    await pick(f, [{ citationKey: 'brigge2002' }, { citationKey: 'adams2001', suppressAuthor: true }]);
    expect(await second).toBe('complete');
    expect(doc.text()).toEqual(['(Adams & Baker, 2001, p. 5)', '(2001; Brigge, 2002)']);

    doc.cursor = { at: 2 };
    expect(await exec(f, doc, 'addEditBibliography')).toBe('complete');
    expect(doc.fields[2]!.code).toBe('BIBL {"uncited":[],"omitted":[],"custom":[]} CSL_BIBLIOGRAPHY');
    expect(doc.fields[2]!.text).toContain('Adams, A., & Baker, B. (2001). On Citing. Journal of Tests, 3, 1–10.');
    expect(doc.fields[2]!.text).toContain('Brigge, C. (2002). Books Are Long. Press.');
    // APA's hanging indent, in Word's twips, as Zotero sends it (Cite.getBibliographyFormatParameters).
    expect(doc.bibliographyStyle).toEqual([-720, 720, 480, 0, [], 0]);
    expect(doc.data).toContain('bibliographyStyleHasBeenSet="1"');
  }, 60_000);

  it('edits a citation at the cursor with its cites shown, and a cancelled picker changes nothing', async () => {
    const doc = new GoogleDoc();
    const first = exec(f, doc, 'addEditCitation');
    await pick(f, [{ citationKey: 'adams2001' }]);
    await first;
    doc.cursor = { inField: doc.fields[0]!.id };
    const before = structuredClone(doc.fields);
    const cancelled = exec(f, doc, 'addEditCitation');
    await pick(f, null);
    expect(await cancelled).toBe('complete');
    expect(doc.fields).toEqual(before);
    expect(doc.alerts).toEqual([]);

    const edit = exec(f, doc, 'editCitation');
    await pick(f, [{ citationKey: 'adams2001', prefix: 'see', locator: '3-4', label: 'chapter' }]);
    expect(await edit).toBe('complete');
    expect(doc.text()).toEqual(['(see Adams & Baker, 2001, Chapters 3–4)']);

    // A cancelled new citation takes its placeholder away again.
    doc.cursor = { at: 1 };
    const gone = exec(f, doc, 'addEditCitation');
    await pick(f, null);
    await gone;
    expect(doc.fields).toHaveLength(1);
    expect(doc.calls).toContain('Field.delete');
  }, 60_000);

  it('refresh keeps a hand-edited citation when the writer says so, and only rewrites what changed', async () => {
    const doc = new GoogleDoc();
    for (const key of ['adams2001', 'brigge2002']) {
      doc.cursor = { at: doc.fields.length };
      const r = exec(f, doc, 'addEditCitation');
      await pick(f, [{ citationKey: key }]);
      await r;
    }
    doc.calls = [];
    expect(await exec(f, doc, 'refresh')).toBe('complete');
    expect(doc.calls.filter((c) => c === 'Field.setText')).toHaveLength(0);

    doc.fields[1]!.text = '(Brigge, 2002, my own words)';
    doc.alertAnswers = [1]; // Yes: keep my change
    doc.calls = [];
    expect(await exec(f, doc, 'refresh')).toBe('complete');
    expect(doc.alerts.at(-1)).toMatchObject({ icon: 2, buttons: 2 });
    expect(doc.alerts.at(-1)!.text).toContain('Original: (Brigge, 2002)');
    expect(doc.text()[1]).toBe('(Brigge, 2002, my own words)');
    expect(doc.fields[1]!.code).toContain('"dontUpdate":true');

    // Answering No overwrites the edit.
    const other = new GoogleDoc();
    other.fields = structuredClone(doc.fields);
    other.data = doc.data;
    other.fields[0]!.text = '(Adams, by hand)';
    other.alertAnswers = [0];
    await exec(f, other, 'refresh');
    expect(other.text()[0]).toBe('(Adams & Baker, 2001)');
  }, 60_000);

  it('reports a corrupted field by name in the document, writing nothing', async () => {
    const doc = new GoogleDoc();
    const r = exec(f, doc, 'addEditCitation');
    await pick(f, [{ citationKey: 'adams2001' }]);
    await r;
    doc.fields[0]!.code = doc.fields[0]!.code.replace('"citationItems":[', '"citationItems":[,');
    const before = structuredClone(doc.fields);
    const data = doc.data;
    doc.calls = [];
    expect(await exec(f, doc, 'refresh')).toBe('complete');
    expect(doc.alerts).toHaveLength(1);
    expect(doc.alerts[0]!.text).toMatch(/The code of citation 1 \(“\(Adams & Baker, 2001\)”\) is not valid JSON/);
    expect(doc.alerts[0]).toMatchObject({ icon: 0, buttons: 0 });
    expect(doc.fields).toEqual(before);
    expect(doc.data).toBe(data);
    expect(doc.calls).not.toContain('Document.setDocumentData');
  }, 60_000);

  it('a plugin error ends the command with Zotero-style alert; a second document is told to wait', async () => {
    const doc = new GoogleDoc();
    doc.insertField = () => {
      throw Object.assign(new Error('Handled Error'), { type: 'Alert' });
    };
    const r = exec(f, doc, 'addEditCitation');
    await prefs(f, (o) => o.current); // a new document's preferences come first, as in Zotero
    expect(await r).toBe('complete');
    expect(doc.alerts[0]!.text).toContain('Handled Error');

    const busy = new GoogleDoc('doc-2');
    const first = exec(f, busy, 'addEditCitation');
    const session = await citePicker(f);
    const second = await send(
      f.api.port,
      'POST',
      '/connector/document/execCommand',
      CONNECTOR,
      JSON.stringify({ command: 'refresh', docId: 'doc-3' }),
    );
    expect(second.status).toBe(503);
    expect(second.body).toBe('Integration transaction is already in progress');
    await answerPicker(f.api.port, session, [{ citationKey: 'adams2001' }]);
    expect(await first).toBe('complete');
  }, 60_000);

  it('a plugin that disconnects while the picker is open ends the command and closes the picker', async () => {
    const controller = new AbortController();
    const held = fetch(`http://127.0.0.1:${f.api.port}/connector/document/execCommand`, {
      method: 'POST',
      headers: CONNECTOR,
      body: JSON.stringify({ command: 'addEditCitation', docId: 'doc-5' }),
      signal: controller.signal,
    }).catch(() => null);
    // The Connector's fetch would get getActiveDocument first: play the document up to the picker.
    const doc = new GoogleDoc('doc-5');
    const reply = await held;
    let next = JSON.parse(await reply!.text()) as { command: string; arguments: unknown[] };
    const waiting = f.nextPicker();
    let body: string;
    const respond = new AbortController();
    for (;;) {
      const method = next.command.split('.')[1]!;
      const result = (doc as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!.apply(
        doc,
        next.arguments.slice(1),
      );
      body = result === undefined || result === null ? 'null' : JSON.stringify(result);
      const r = await Promise.race([
        fetch(`http://127.0.0.1:${f.api.port}/connector/document/respond`, {
          method: 'POST',
          headers: CONNECTOR,
          body: JSON.stringify(body),
          signal: respond.signal,
        }).then(async (x) => JSON.parse(await x.text()) as { command: string; arguments: unknown[] }),
        waiting.then(() => null),
      ]);
      if (r === null) break;
      next = r;
    }
    expect(f.api.pickers.open).toBe(1);
    expect(f.api.integration.transport.busy).toBe(true);
    respond.abort(); // the tab closed
    for (let i = 0; i < 100 && (f.api.integration.transport.busy || f.api.pickers.open > 0); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(f.api.pickers.open).toBe(0);
    expect(f.api.integration.transport.busy).toBe(false);
    // The next document is served at once.
    const again = new GoogleDoc('doc-6');
    const r = exec(f, again, 'addEditCitation');
    await pick(f, [{ citationKey: 'brigge2002' }]);
    expect(await r).toBe('complete');
  }, 60_000);

  it('continues a document Zotero wrote: library items by their key, unknown ones from embedded data', async () => {
    const [adamsKey] = await f.core.library.lib.zoteroKeysOf('item', [f.ids.adams2001!]);
    const doc = new GoogleDoc('zotero-doc');
    // As Zotero 7 leaves a Google Doc: its document data and codes (Citation.toJSON, Bibliography.serialize).
    doc.data =
      '<data data-version="3" zotero-version="7.0.11"><session id="ZsEs5n1d"/><style id="http://www.zotero.org/styles/apa" locale="en-US" hasBibliography="1" bibliographyStyleHasBeenSet="1"/><prefs><pref name="fieldType" value="Http"/><pref name="automaticJournalAbbreviations" value="true"/></prefs></data>';
    const zoteroCitation = (id: string, item: object, uri: string, plain: string) =>
      `ITEM CSL_CITATION ${JSON.stringify({
        citationID: id,
        properties: { formattedCitation: plain.replace('&', '&#38;'), plainCitation: plain, noteIndex: 0 },
        citationItems: [{ id: 412, uris: [uri], itemData: item }],
        schema: 'https://github.com/citation-style-language/schema/raw/master/csl-citation.json',
      })}`;
    doc.fields = [
      {
        id: 'z1',
        code: zoteroCitation(
          'Zc1',
          {
            id: 412,
            type: 'article-journal',
            title: 'On Citing',
            author: [
              { family: 'Adams', given: 'Ann' },
              { family: 'Baker', given: 'Bob' },
            ],
            issued: { 'date-parts': [['2001']] },
          },
          `http://zotero.org/users/9876543/items/${adamsKey}`,
          '(Adams & Baker, 2001)',
        ),
        text: '(Adams & Baker, 2001)',
        noteIndex: 0,
      },
      {
        id: 'z2',
        code: zoteroCitation(
          'Zc2',
          {
            id: 977,
            type: 'article-journal',
            title: 'Quorum sensing in mixed biofilms',
            'container-title': 'Journal of Microbial Studies',
            author: [
              { family: 'Franklin', given: 'Rosalind' },
              { family: 'Wilkins', given: 'Maurice' },
            ],
            issued: { 'date-parts': [['2023', 5, 17]] },
            volume: '41',
            page: '233-251',
          },
          'http://zotero.org/users/9876543/items/QQQQ2345',
          '(Franklin & Wilkins, 2023)',
        ),
        text: '(Franklin & Wilkins, 2023)',
        noteIndex: 0,
      },
      {
        id: 'z3',
        code: 'BIBL {"uncited":[],"omitted":[],"custom":[]} CSL_BIBLIOGRAPHY',
        text: 'Adams … Franklin …',
        noteIndex: 0,
      },
    ];
    doc.alertAnswers = [1]; // Yes: add the co-author's item to the library
    doc.calls = [];
    expect(await exec(f, doc, 'refresh')).toBe('complete');
    // Zotero's text is what Citewise prints: the citations are not rewritten, only re-coded.
    expect(doc.text().slice(0, 2)).toEqual(['(Adams & Baker, 2001)', '(Franklin & Wilkins, 2023)']);
    expect(doc.fields[2]!.text).toContain('Franklin, R., & Wilkins, M. (2023). Quorum sensing in mixed biofilms.');
    expect(doc.fields[2]!.text).toContain('Adams, A., & Baker, B. (2001). On Citing. Journal of Tests');
    const c1 = JSON.parse(doc.fields[0]!.code.replace('ITEM CSL_CITATION ', '')) as {
      citationID: string;
      citationItems: { id: unknown; uris: string[] }[];
    };
    expect(c1.citationID).toBe('Zc1');
    expect(c1.citationItems[0]).toMatchObject({
      id: f.ids.adams2001,
      uris: [`http://zotero.org/users/local/citewise/items/${adamsKey}`],
    });
    expect(doc.data).toContain('<session id="ZsEs5n1d"/>');
    expect(doc.data).toContain('<pref name="automaticJournalAbbreviations" value="true"/>');
    // The offer to import, and the import itself.
    expect(doc.alerts).toHaveLength(1);
    expect(doc.alerts[0]!.text).toContain('One cited item is not in your Citewise library');
    const found = await f.core.library.listing.list({
      query: 'quorum',
      sort: { column: 'relevance', direction: 'desc' },
      limit: 5,
    });
    const quorum = found.rows.find((r) => r.title === 'Quorum sensing in mixed biofilms')!;
    expect(quorum).toBeDefined();
    // Relinked on the same refresh: the citation now cites the new library item, its data still embedded.
    const [quorumKey] = await f.core.library.lib.zoteroKeysOf('item', [quorum.id]);
    const c2 = JSON.parse(doc.fields[1]!.code.replace('ITEM CSL_CITATION ', '')) as {
      citationItems: { id: unknown; uris: string[]; itemData: { id: unknown; title: string } }[];
    };
    expect(c2.citationItems[0]!.id).toBe(quorum.id);
    expect(c2.citationItems[0]!.uris).toEqual([`http://zotero.org/users/local/citewise/items/${quorumKey}`]);
    expect(c2.citationItems[0]!.itemData).toMatchObject({ id: quorum.id, title: 'Quorum sensing in mixed biofilms' });
    // A second refresh changes nothing and asks nothing.
    const settled = structuredClone(doc.fields);
    doc.calls = [];
    expect(await exec(f, doc, 'refresh')).toBe('complete');
    expect(doc.alerts).toHaveLength(1);
    // Only the bibliography's text, which a refresh always sets (as Zotero's FORCE_CITATIONS_REGENERATE).
    expect(f.api.integration.sessions.last).toMatchObject({ setText: 1, setCode: 0 });
    expect(doc.fields).toEqual(settled);

    // Inserting a citation between them uses the warm session: one cluster processed.
    doc.cursor = { at: 1 };
    const adding = exec(f, doc, 'addEditCitation');
    await pick(f, [{ citationKey: 'brigge2002', locator: '12' }]);
    expect(await adding).toBe('complete');
    expect(f.api.integration.sessions.last.rebuilt).toBe(false);
    expect(doc.text().slice(0, 3)).toEqual([
      '(Adams & Baker, 2001)',
      '(Brigge, 2002, p. 12)',
      '(Franklin & Wilkins, 2023)',
    ]);
  }, 60_000);

  it('relinks imported items to the library in one undo step: new ones and one the library had', async () => {
    const doc = new GoogleDoc('relink-doc');
    doc.data =
      '<data data-version="3" zotero-version="7.0.11"><session id="Rl1nk0"/><style id="http://www.zotero.org/styles/apa" locale="en-US" hasBibliography="1" bibliographyStyleHasBeenSet="1"/><prefs><pref name="fieldType" value="Http"/></prefs></data>';
    const cite = (id: string, items: { uri: string; data: object }[], plain: string) => ({
      id,
      code: `ITEM CSL_CITATION ${JSON.stringify({
        citationID: id,
        properties: { formattedCitation: plain, plainCitation: plain, noteIndex: 0 },
        citationItems: items.map((x, i) => ({ id: 500 + i, uris: [x.uri], itemData: { id: 500 + i, ...x.data } })),
        schema: 'https://github.com/citation-style-language/schema/raw/master/csl-citation.json',
      })}`,
      text: plain,
      noteIndex: 0,
    });
    const wood = {
      type: 'book',
      title: 'Tides of the North Sea',
      author: [{ family: 'Wood', given: 'Ilse' }],
      issued: { 'date-parts': [[1998]] },
      publisher: 'Coastline',
    };
    const zhu = {
      type: 'article-journal',
      title: 'Lattice gauge drift',
      author: [{ family: 'Zhu', given: 'Lan' }],
      issued: { 'date-parts': [[2015]] },
      'container-title': 'Physics Letters',
    };
    // The co-author's copy of an item this library already has (same DOI): relinked to it, not imported twice.
    const adams = {
      type: 'article-journal',
      title: 'On citing',
      DOI: '10.1000/ADAMS',
      author: [
        { family: 'Adams', given: 'Ann' },
        { family: 'Baker', given: 'Bob' },
      ],
      issued: { 'date-parts': [[2001]] },
      'container-title': 'Journal of Tests',
      volume: '3',
      page: '1-10',
    };
    doc.fields = [
      cite('R1', [{ uri: 'http://zotero.org/users/555/items/WOOD2345', data: wood }], '(Wood, 1998)'),
      cite(
        'R2',
        [
          { uri: 'http://zotero.org/users/555/items/ZHUU2345', data: zhu },
          { uri: 'http://zotero.org/users/555/items/ADAM2345', data: adams },
        ],
        '(Adams & Baker, 2001; Zhu, 2015)',
      ),
      cite('R3', [{ uri: 'http://zotero.org/users/555/items/WOOD2345', data: wood }], '(Wood, 1998)'),
    ];
    doc.alertAnswers = [1];
    expect(await exec(f, doc, 'refresh')).toBe('complete');
    expect(doc.alerts).toHaveLength(1);
    expect(doc.alerts[0]!.text).toContain('3 cited items are not in your Citewise library');
    const codes = doc.fields.map(
      (x) =>
        JSON.parse(x.code.replace('ITEM CSL_CITATION ', '')) as {
          citationItems: { id: number; uris: string[]; itemData: { id: number; title: string } }[];
        },
    );
    const [woodRow] = (
      await f.core.library.listing.list({
        query: 'tides north sea',
        sort: { column: 'relevance', direction: 'desc' },
        limit: 1,
      })
    ).rows;
    const [zhuRow] = (
      await f.core.library.listing.list({
        query: 'lattice gauge drift',
        sort: { column: 'relevance', direction: 'desc' },
        limit: 1,
      })
    ).rows;
    expect(codes[0]!.citationItems[0]).toMatchObject({
      id: woodRow!.id,
      itemData: { id: woodRow!.id, title: 'Tides of the North Sea' },
    });
    expect(codes[2]!.citationItems[0]!.id).toBe(woodRow!.id);
    expect(codes[1]!.citationItems.map((x) => x.id)).toEqual([zhuRow!.id, f.ids.adams2001]);
    const keys = await f.core.library.lib.zoteroKeysOf('item', [woodRow!.id, zhuRow!.id, f.ids.adams2001!]);
    expect(codes[0]!.citationItems[0]!.uris).toEqual([`http://zotero.org/users/local/citewise/items/${keys[0]}`]);
    expect(codes[1]!.citationItems.map((x) => x.uris[0])).toEqual(
      [keys[1], keys[2]].map((k) => `http://zotero.org/users/local/citewise/items/${k}`),
    );
    // The library's data of the item it already had is what the document embeds now.
    expect(codes[1]!.citationItems[1]!.itemData.title).toBe('On Citing');
    // A second refresh changes no citation.
    const settled = doc.fields.map((x) => x.code);
    expect(await exec(f, doc, 'refresh')).toBe('complete');
    expect(doc.fields.map((x) => x.code)).toEqual(settled);
    expect(f.api.integration.sessions.last).toMatchObject({ setText: 0, setCode: 0 });
    // One undo takes the whole import back.
    const undone = await f.core.invoke('library.undo', {});
    expect(undone.ok).toBe(true);
    expect(JSON.stringify(undone.ok && undone.value)).toMatch(/word-processor document|[Ii]mport/);
    const gone = await f.core.library.listing.list({
      query: 'tides north sea',
      sort: { column: 'relevance', direction: 'desc' },
      limit: 1,
    });
    expect(gone.rows.map((r) => r.title)).not.toContain('Tides of the North Sea');
    expect(
      (
        await f.core.library.listing.list({
          query: 'lattice gauge drift',
          sort: { column: 'relevance', direction: 'desc' },
          limit: 1,
        })
      ).rows,
    ).toHaveLength(0);
  }, 60_000);

  it('delayed citation updates: an insert touches no other citation and is marked; refresh catches up', async () => {
    const doc = new GoogleDoc('delay-doc');
    for (const key of ['adams2001', 'brigge2002']) {
      doc.cursor = { at: doc.fields.length };
      const r = exec(f, doc, 'addEditCitation');
      await pick(f, [{ citationKey: key }]);
      await r;
    }
    doc.cursor = { at: 2 };
    await exec(f, doc, 'addEditBibliography');
    // A numeric style (a new first citation renumbers the others), with updates delayed as Zotero stores it.
    doc.data = doc.data
      .replace('styles/apa"', 'styles/ieee"')
      .replace('</prefs>', '<pref name="delayCitationUpdates" value="true"/></prefs>');
    await exec(f, doc, 'refresh');
    expect(doc.text().slice(0, 2)).toEqual(['[1]', '[2]']);
    const others = structuredClone(doc.fields.slice(0, 2));

    doc.cursor = { at: 0 };
    doc.calls = [];
    const r = exec(f, doc, 'addEditCitation');
    await pick(f, [{ citationKey: 'Author:2026-test' }]);
    expect(await r).toBe('complete');
    // The new citation alone, formatted on its own; the others keep their text and code.
    expect(doc.text().slice(0, 3)).toEqual(['[1]', '[1]', '[2]']);
    expect(doc.fields.slice(1, 3)).toEqual(others);
    expect(doc.calls.filter((c) => c === 'Field.setText')).toHaveLength(2); // the new citation, the bibliography's notice
    const code = JSON.parse(doc.fields[0]!.code.replace('ITEM CSL_CITATION ', '')) as {
      properties: { formattedCitation: string; plainCitation: string };
    };
    expect(code.properties.formattedCitation).toBe("<div class='delayed-zotero-citation-updates'>[1]</div>");
    expect(code.properties.plainCitation).toBe('[1]');
    expect(doc.fields[3]!.text).toBe(
      'Automatic citation updates are disabled. To see the bibliography, click Refresh in the Zotero tab.',
    );
    expect(f.api.integration.sessions.last.rebuilt).toBe(false);

    // Refresh: every citation numbered again, the mark gone, the bibliography back, and no question
    // about the marked citation (its text is what was written).
    doc.calls = [];
    expect(await exec(f, doc, 'refresh')).toBe('complete');
    expect(doc.alerts).toEqual([]);
    expect(doc.text().slice(0, 3)).toEqual(['[1]', '[2]', '[3]']);
    expect(doc.fields[0]!.code).not.toContain('delayed-zotero-citation-updates');
    expect(doc.fields[3]!.text).toContain('A. Author, “A Synthetic Article,”');
    expect(f.api.integration.sessions.last.rebuilt).toBe(true);
  }, 60_000);

  it('document preferences: a new style reformats every citation; remove codes keeps the text', async () => {
    const doc = new GoogleDoc('prefs-doc');
    for (const key of ['adams2001', 'brigge2002']) {
      doc.cursor = { at: doc.fields.length };
      const r = exec(f, doc, 'addEditCitation');
      await pick(f, [{ citationKey: key }]);
      await r;
    }
    // Document Preferences: the page offers the built-in styles by the ids documents use, with the
    // document's preferences chosen; the writer picks IEEE. A cancelled dialog changes nothing first.
    const before = structuredClone(doc.fields);
    const data = doc.data;
    const cancelled = exec(f, doc, 'setDocPrefs');
    await prefs(f, () => null);
    expect(await cancelled).toBe('complete');
    expect(doc.fields).toEqual(before);
    expect(doc.data).toBe(data);
    const running = exec(f, doc, 'setDocPrefs');
    const offered = await prefs(f, (o) => ({ ...o.current, styleID: 'http://www.zotero.org/styles/ieee' }));
    expect(await running).toBe('complete');
    expect(offered.current).toEqual({
      styleID: 'http://www.zotero.org/styles/apa',
      locale: 'en-US',
      noteType: 0,
      delayCitationUpdates: false,
    });
    expect(offered.styles.map((s) => s.id)).toEqual(
      expect.arrayContaining(['http://www.zotero.org/styles/apa', 'http://www.zotero.org/styles/ieee']),
    );
    expect(offered.locales.find((l) => l.tag === 'de-AT')?.name).toMatch(/German.* — de-AT$/);
    expect(doc.text()).toEqual(['[1]', '[2]']);
    expect(doc.data).toContain('<style id="http://www.zotero.org/styles/ieee" locale="en-US"');
    expect(JSON.parse(doc.fields[1]!.code.replace('ITEM CSL_CITATION ', '')).properties.plainCitation).toBe('[2]');

    doc.alertAnswers = [0]; // Cancel
    await exec(f, doc, 'removeCodes');
    expect(doc.fields.every((x) => x.code.startsWith('ITEM CSL_CITATION'))).toBe(true);
    doc.alertAnswers = [1]; // OK
    await exec(f, doc, 'removeCodes');
    expect(doc.fields.map((x) => x.code)).toEqual(['', '']);
    // The document keeps its preferences, as with Zotero.
    expect(doc.data).toContain('<pref name="fieldType" value="Http"/>');
    expect(doc.text()).toEqual(['[1]', '[2]']);
  }, 60_000);

  it('formats with a style the user installed; a style neither built in nor installed gets Zotero’s alert', async () => {
    const lab = `<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><title>Lab Style</title><id>http://www.zotero.org/styles/citewise-lab-style</id><updated>2024-01-01T00:00:00+00:00</updated></info>
  <citation><layout prefix="«" suffix="»" delimiter="; "><text variable="title"/></layout></citation>
  <bibliography><layout><text variable="title"/></layout></bibliography>
</style>`;
    const added = await f.core.invoke('library.styles.add', { xml: lab });
    if (!added.ok) throw new Error(added.error.message);
    const doc = new GoogleDoc('lab-doc');
    const r = exec(f, doc, 'addEditCitation');
    await pick(f, [{ citationKey: 'adams2001' }]);
    await r;
    const styled = doc.data.replace('styles/apa"', 'styles/citewise-lab-style"');
    doc.data = styled;
    expect(await exec(f, doc, 'refresh')).toBe('complete');
    expect(doc.alerts).toEqual([]);
    expect(doc.text()).toEqual(['«On Citing»']);

    // A style nobody has: Zotero's alert, then Document Preferences; Cancel leaves the document as it was.
    doc.data = styled.replace('citewise-lab-style', 'no-such-style-here');
    const before = structuredClone(doc.fields);
    const data = doc.data;
    doc.calls = [];
    const missing = exec(f, doc, 'refresh');
    const offered = await prefs(f, () => null);
    expect(await missing).toBe('complete');
    expect(doc.alerts.map((a) => a.text)).toEqual([
      'The citation style http://www.zotero.org/styles/no-such-style-here could not be found.',
    ]);
    expect(offered.styles.map((s) => s.id)).toContain('http://www.zotero.org/styles/citewise-lab-style');
    expect(doc.fields).toEqual(before);
    expect(doc.data).toBe(data);
    expect(doc.calls).not.toContain('Field.setText');
    expect(doc.calls).not.toContain('Field.setCode');
  }, 60_000);

  it('refuses web pages as the Connector endpoints do, and says what is wrong with a bad request', async () => {
    const page = send(
      f.api.port,
      'POST',
      '/connector/document/execCommand',
      { ...CONNECTOR, Origin: 'https://evil.example' },
      JSON.stringify({ command: 'refresh', docId: 'x' }),
    );
    await expect(page).rejects.toThrow(/socket hang up|ECONNRESET/);
    const noHeader = send(
      f.api.port,
      'POST',
      '/connector/document/execCommand',
      { 'Content-Type': 'application/json', 'User-Agent': CONNECTOR['User-Agent'] },
      JSON.stringify({ command: 'refresh' }),
    );
    await expect(noHeader).rejects.toThrow(/socket hang up|ECONNRESET/);
    const notJson = await send(f.api.port, 'POST', '/connector/document/execCommand', CONNECTOR, '{"command":');
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatch(/the body of \/connector\/document\/execCommand is not JSON/);
    const noCommand = await send(f.api.port, 'POST', '/connector/document/execCommand', CONNECTOR, '{}');
    expect(noCommand.status).toBe(400);
    expect(f.api.integration.transport.busy).toBe(false);
  }, 60_000);
});
