// One integration command against one document, in Zotero's order of document calls (integration.js
// Integration.execCommand and Interface): find the document, read its data, run the command, write
// the data back; on an error, show it in the document (activate + displayAlert, as Zotero does);
// always activate and complete. The document is reached only through `call` (the transport's), so
// the same commands serve every transport.
import { createHash, randomBytes } from 'node:crypto';
import type { CslItem } from '../../../shared/model/csl';
import type { LocaleLookup } from '../../core/formats/cite/locales';
import {
  bibliographyCode,
  citationCode,
  DATA_VERSION,
  DocumentDataError,
  fieldKind,
  itemKeyOfUri,
  parseBibliographyCode,
  parseCitationCode,
  parseDocumentData,
  serializeDocumentData,
  type BibliographyCode,
  type CitationCode,
  type CitationItem,
  type DocumentData,
} from './codes';
import { ClusterFormatter, styleFacts, type Cluster } from './engine';

// Zotero's dialog constants (integration.js), which the plugins map to their own dialogs.
export const ICON_STOP = 0;
export const ICON_WARNING = 1;
export const ICON_CAUTION = 2;
export const BUTTONS_OK = 0;
export const BUTTONS_OK_CANCEL = 1;
export const BUTTONS_YES_NO = 2;

/** The commands the plugins send (Zotero's Interface methods). */
export const COMMANDS = [
  'addCitation',
  'editCitation',
  'addEditCitation',
  'addBibliography',
  'editBibliography',
  'addEditBibliography',
  'refresh',
  'removeCodes',
  'setDocPrefs',
] as const;
export type Command = (typeof COMMANDS)[number];

/** A field as the plugins describe it (HTTPIntegrationClient.Field). */
export interface DocField {
  id: string;
  code: string;
  text: string;
  noteIndex: number;
  adjacent?: boolean;
}

/** Calls one document method (`Document.getFields`, `Field.setText`…) and waits for its result. */
export type DocumentCall = (command: string, args: unknown[]) => Promise<unknown>;

/** A cite as the user chose it in the picker. `item` is a library id, or an embedded item's id. */
export interface ChosenCite {
  item: number | string;
  locator?: string;
  label?: string;
  prefix?: string;
  suffix?: string;
  suppressAuthor?: boolean;
}

export interface DocPrefs {
  /** Zotero's style id (http://www.zotero.org/styles/apa) or a Citewise style id. */
  styleID: string;
  locale?: string;
  /** 0 in-text, 1 footnotes, 2 endnotes (Zotero's noteType). */
  noteType: number;
  /**
   * Zotero's delayCitationUpdates (its dialog's "Automatically update citations" unticked): a new or
   * edited citation is written on its own and marked; the others and the bibliography wait for Refresh.
   */
  delayCitationUpdates?: boolean;
}

/**
 * The user's side of a command: the picker and the document preferences. The app drives them with
 * its picker window; tests drive them by answering directly. null is the user cancelling.
 */
export interface IntegrationDialogs {
  chooseCites(
    current: ChosenCite[],
    embedded: ReadonlyMap<string, CslItem>,
    signal: AbortSignal,
  ): Promise<ChosenCite[] | null>;
  /** `notes`: the notes the word processor has (its supportedNotes); none for in-text only. */
  documentPreferences(
    current: DocPrefs | null,
    signal: AbortSignal,
    notes?: ('footnotes' | 'endnotes')[],
  ): Promise<DocPrefs | null>;
}

/** What the commands need from the library: items by Zotero key, and by id. */
export interface IntegrationLibrary {
  byKeys(keys: readonly string[]): Promise<Map<string, { id: number; csl: CslItem }>>;
  byIds(ids: readonly number[]): Promise<Map<number, { key: string; csl: CslItem }>>;
  /**
   * Adds items (CSL-JSON) to the library as one import (one undo step): for each item, in order, the
   * library item it became (a new one, or the one it duplicates), or null when it was left out.
   */
  importItems(items: CslItem[]): Promise<(number | null)[]>;
}

export interface ResolvedStyle {
  /** The id written into the document (Zotero's form). */
  styleID: string;
  xml: string;
}

export interface StyleSource {
  /**
   * The style for a Zotero or Citewise style id: a built-in style or one the user installed. Throws
   * StyleMissing when it is neither, any other Error when the style is there but unusable.
   */
  resolve(styleID: string): ResolvedStyle | Promise<ResolvedStyle>;
  /**
   * Installs the style a document names and the library lacks (Zotero.Styles.install from the
   * style's URL; here, from the CSL styles repository shipped with Citewise). Throws when it has no such style.
   */
  install?(styleID: string): Promise<ResolvedStyle>;
  locales: LocaleLookup;
}

/** The document's style is neither built in nor installed (Zotero's integration.error.invalidStyle). */
export class StyleMissing extends Error {
  override name = 'StyleMissing';
}

/** Zotero's test for a style id it installs without asking (integration.js getSession). */
const TRUSTED_STYLE_SOURCE = /^https?:\/\/(www\.)?(zotero\.org|citationstyles\.org)/;

export interface SessionOptions {
  library: IntegrationLibrary;
  dialogs: IntegrationDialogs;
  styles: StyleSource;
  /** The version written into document data (Zotero's `zotero-version`). */
  version: string;
  /** The prefix of this library's item URIs (…/items/KEY follows). */
  uriPrefix: string;
}

/** An error the user reads in the document (Zotero.Exception.Alert). */
export class AlertError extends Error {
  override name = 'AlertError';
}
/** The user cancelled a dialog: nothing more is done, nothing reported (Zotero.Exception.UserCancelled). */
export class UserCancelled extends Error {
  override name = 'UserCancelled';
}

const FIELD_TYPE = 'Http';

// How Zotero marks a citation written while updates are delayed (integration.js), until a refresh.
const DELAYED_HTML = ["<div class='delayed-zotero-citation-updates'>", '</div>'] as const;
const DELAYED_RTF = '\\uldash';
/** The bibliography's text while updates are delayed (Zotero's integration.delayCitationUpdates.bibliography.tab). */
export const DELAYED_BIBLIOGRAPHY =
  'Automatic citation updates are disabled. To see the bibliography, click Refresh in the Zotero tab.';

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
/** The text a word processor keeps of citeproc-js's HTML (as the HTTP client's DOMParser textContent). */
export const plainText = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) =>
      e[0] === '#'
        ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
        : (NAMED[e.toLowerCase()] ?? whole),
    );

const randomId = (): string => randomBytes(6).toString('base64url').replace(/[-_]/g, 'x');

/** A warm engine kept between transactions of a document, as Zotero keeps its sessions. */
interface Warm {
  key: string;
  engine: ClusterFormatter;
  /** What the engine holds, per cluster, to tell whether the document still matches it. */
  signature: string[];
  /** The citationID of each cluster, in order. */
  ids: string[];
  items: Map<string, CslItem>;
  /** Each cluster's text as the engine last gave it. */
  texts: Map<string, string>;
  /** The bibliography the engine last made (null: the style has none); undefined until asked. */
  bibliography?: ReturnType<ClusterFormatter['bibliography']>;
}

interface Citation {
  field: DocField;
  index: number;
  code: CitationCode;
  cluster: Cluster;
}

/** The citation data of a document, read once per transaction. */
interface Reading {
  fields: DocField[];
  citations: Citation[];
  bibliographies: { field: DocField; index: number; code: BibliographyCode }[];
  /** Items by the ids clusters use. */
  items: Map<string, CslItem>;
  /** Per cluster item id: the URIs to write back. */
  uris: Map<string, string[]>;
  /** Items cited only from embedded data, by their (session/random) ids. */
  embedded: Map<string, CslItem>;
}

export class IntegrationSessions {
  readonly #o: SessionOptions;
  readonly #warm = new Map<string, Warm>();
  /** Document sessions already offered the import of their unknown items. */
  readonly #offered = new Set<string>();
  /**
   * Statistics of the last command (tests and benchmarks read them): fields written, whether the
   * engine was rebuilt, and the time spent waiting on the document (its answers, and the HTTP between).
   */
  last = { setText: 0, setCode: 0, rebuilt: false, documentMs: 0 };

  constructor(o: SessionOptions) {
    this.#o = o;
  }

  /** Drops the warm engines (a style was reinstalled; benchmarks measure a first refresh). */
  forget(): void {
    this.#warm.clear();
  }

  /**
   * Runs one command to the end, talking to the document through `call`. Never throws. `fieldType`
   * is the kind of field the document holds, as Zotero names it: `Http` (Google Docs), `Field` (Word),
   * `ReferenceMark` (LibreOffice).
   */
  async run(
    command: string,
    call: DocumentCall,
    signal: AbortSignal = new AbortController().signal,
    fieldType: string = FIELD_TYPE,
  ): Promise<void> {
    const t = new Transaction(this.#o, this.#warm, call, this.last, signal, this.#offered, fieldType);
    await t.run(command);
  }
}

class Transaction {
  #docId: unknown = null;
  #data: DocumentData | null = null;
  #fields: DocField[] | null = null;
  #outputFormat: 'html' | 'rtf' | 'text' = 'html';
  #notesSupported = true;
  #notes: ('footnotes' | 'endnotes')[] = ['footnotes'];
  /** The document's style, resolved once per transaction. */
  #resolved: ResolvedStyle | null = null;

  constructor(
    private readonly o: SessionOptions,
    private readonly warm: Map<string, Warm>,
    private readonly rawCall: DocumentCall,
    private readonly stats: IntegrationSessions['last'],
    private readonly signal: AbortSignal,
    private readonly offered: Set<string>,
    private readonly fieldType: string,
  ) {
    stats.setText = 0;
    stats.setCode = 0;
    stats.rebuilt = false;
    stats.documentMs = 0;
  }

  async #call(command: string, ...args: unknown[]): Promise<unknown> {
    if (command === 'Field.setText') this.stats.setText++;
    if (command === 'Field.setCode') this.stats.setCode++;
    const start = performance.now();
    try {
      return await this.rawCall(command, [this.#docId, ...args]);
    } finally {
      this.stats.documentMs += performance.now() - start;
    }
  }

  async run(command: string): Promise<void> {
    let opened = false;
    try {
      if (!(COMMANDS as readonly string[]).includes(command))
        throw new AlertError(`Citewise does not support the command "${command}" yet.`);
      const doc = (await this.rawCall('Application.getActiveDocument', [])) as Record<string, unknown> | null;
      this.#docId = doc?.documentID ?? doc?.documentId ?? null;
      opened = true;
      if (doc?.outputFormat === 'rtf' || doc?.outputFormat === 'text') this.#outputFormat = doc.outputFormat;
      if (Array.isArray(doc?.supportedNotes)) {
        this.#notesSupported = doc.supportedNotes.length > 0;
        this.#notes = (['footnotes', 'endnotes'] as const).filter((n) => (doc.supportedNotes as unknown[]).includes(n));
      }
      const dataText = await this.#call('Document.getDocumentData');
      try {
        this.#data = parseDocumentData(typeof dataText === 'string' ? dataText : '');
      } catch {
        this.#data = null; // as Zotero: unreadable data is a document without data
      }
      if (this.#data && this.#data.dataVersion > DATA_VERSION && this.#data.dataVersion !== 4)
        throw new AlertError(
          `This document was last edited with Zotero ${this.#data.zoteroVersion}, whose document format is newer than Citewise reads. Update Citewise to continue.`,
        );
      if (this.#data?.prefs.fieldType && this.#data.prefs.fieldType !== this.fieldType)
        throw new AlertError(
          `This document's citations are ${String(this.#data.prefs.fieldType)} fields of another word processor; convert it in Zotero's Document Preferences first.`,
        );
      if (this.#data) this.#data.sessionID ??= randomId();
      if (this.#data?.prefs.fieldType && command !== 'setDocPrefs') await this.#ensureStyle();
      await this[command as Command]();
      if (this.#data) await this.#call('Document.setDocumentData', serializeDocumentData(this.#data, this.o.version));
    } catch (err) {
      if (err instanceof TransportClosed) return;
      if (err instanceof UserCancelled) {
        if (this.#data && opened)
          await this.#quietly('Document.setDocumentData', serializeDocumentData(this.#data, this.o.version));
      } else if (opened) {
        const message =
          err instanceof AlertError || err instanceof DocumentDataError
            ? err.message
            : `Citewise could not finish this command: ${err instanceof Error ? err.message : String(err)}`;
        await this.#quietly('Document.activate');
        await this.#quietly('Document.displayAlert', message, ICON_STOP, BUTTONS_OK);
      }
    }
    if (opened) {
      try {
        await this.#quietly('Document.activate');
        await this.#quietly('Document.complete');
      } catch {
        // the word processor went away at the very end: nothing is left to tell it
      }
    }
  }

  /** A call whose failure (the plugin's error) must not hide the one being reported. */
  async #quietly(command: string, ...args: unknown[]): Promise<void> {
    try {
      await this.#call(command, ...args);
    } catch (err) {
      if (err instanceof TransportClosed) throw err;
    }
  }

  // ---- the commands --------------------------------------------------------------------------

  async addCitation(): Promise<void> {
    await this.#init(false);
    await this.#cite(null);
  }

  async editCitation(): Promise<void> {
    await this.#init(true);
    const field = await this.#cursorField();
    if (!field) throw new AlertError('The cursor is not in a citation. Place it in one to edit it.');
    await this.#cite(field);
  }

  async addEditCitation(): Promise<void> {
    await this.#init(false);
    await this.#cite(await this.#cursorField());
  }

  async addBibliography(): Promise<void> {
    return this.addEditBibliography();
  }

  async editBibliography(): Promise<void> {
    return this.addEditBibliography();
  }

  async addEditBibliography(): Promise<void> {
    await this.#init(true);
    const style = await this.#style();
    if (!styleFacts(style.xml).hasBibliography)
      throw new AlertError('The document’s citation style has no bibliography.');
    let reading = await this.#read();
    if (reading.bibliographies.length === 0) {
      const field = await this.#addField(false);
      await this.#call('Field.setCode', field.id, bibliographyCode({ uncited: [], omitted: [], custom: [] }));
      this.#fields = null;
      reading = await this.#read();
    }
    // Delayed updates: the processor is rebuilt from the document first (Zotero's rebuildCiteprocState).
    const delayed = this.#data!.prefs.delayCitationUpdates === true;
    await this.#update(reading, { forceBibliography: true, ...(delayed ? { rebuild: true } : {}) });
  }

  async refresh(): Promise<void> {
    await this.#init(true);
    const reading = await this.#read();
    // Zotero rebuilds the processor on every refresh of a document with delayed updates.
    const delayed = this.#data!.prefs.delayCitationUpdates === true;
    if (reading.embedded.size > 0) await this.#offerImport(reading);
    await this.#update(reading, { forceBibliography: true, ...(delayed ? { rebuild: true } : {}) });
  }

  async removeCodes(): Promise<void> {
    await this.#init(true);
    const fields = await this.#getFields();
    const ok = await this.#call(
      'Document.displayAlert',
      'Removing the citation codes keeps the text of every citation and the bibliography but Citewise (and Zotero) can no longer update them. This cannot be undone. Continue?',
      ICON_WARNING,
      BUTTONS_OK_CANCEL,
    );
    if (!ok) return;
    for (let i = fields.length - 1; i >= 0; i--) await this.#call('Field.removeCode', fields[i]!.id);
    // The document keeps its preferences (as with Zotero): new citations need no dialog.
  }

  async setDocPrefs(): Promise<void> {
    const had = this.#data?.prefs.fieldType ? structuredClone(this.#data) : null;
    const fields = had ? await this.#getFields() : [];
    await this.#docPrefs();
    if (!had) return;
    const data = this.#data!;
    const noteChanged = Number(had.prefs.noteType ?? 0) !== Number(data.prefs.noteType ?? 0);
    if (noteChanged) {
      const convert = fields.filter((f) => fieldKind(f.code) === 'citation');
      if (convert.length > 0) {
        await this.#call(
          'Document.convert',
          convert.map((f) => f.id),
          this.fieldType,
          convert.map(() => Number(data.prefs.noteType ?? 0)),
        );
        this.#fields = null;
      }
    }
    // As Zotero: turning delayed updates off brings every citation up to date at once.
    const undelayed = had.prefs.delayCitationUpdates === true && data.prefs.delayCitationUpdates !== true;
    if (noteChanged || undelayed || had.style.styleID !== data.style.styleID || had.style.locale !== data.style.locale)
      await this.#update(await this.#read(), { forceBibliography: true, rebuild: true, resetText: true });
  }

  // ---- steps ---------------------------------------------------------------------------------

  /** Zotero's Session.init: `require` needs citations in the document; a document without preferences gets them first. */
  async #init(require: boolean): Promise<void> {
    if (require) {
      const fields = await this.#getFields();
      if (fields.length === 0) throw new AlertError('This document has no citations yet. Insert a citation first.');
    }
    if (!this.#data?.prefs.fieldType) await this.#docPrefs();
  }

  async #docPrefs(): Promise<void> {
    const d = this.#data;
    const current: DocPrefs | null = d?.prefs.fieldType
      ? {
          styleID: d.style.styleID,
          ...(d.style.locale ? { locale: d.style.locale } : {}),
          noteType: Number(d.prefs.noteType ?? 0),
          delayCitationUpdates: d.prefs.delayCitationUpdates === true,
        }
      : null;
    const chosen = await this.o.dialogs.documentPreferences(current, this.signal, this.#notes);
    if (this.signal.aborted) throw new TransportClosed('the word processor is gone');
    if (!chosen) throw new UserCancelled('document preferences');
    let style: ResolvedStyle;
    try {
      style = await this.o.styles.resolve(chosen.styleID);
    } catch (err) {
      throw new AlertError(err instanceof Error ? err.message : String(err));
    }
    this.#resolved = style;
    const facts = styleFacts(style.xml);
    const noteType = facts.note && this.#notesSupported ? Math.min(2, Math.max(1, chosen.noteType || 1)) : 0;
    const prefs: DocumentData['prefs'] = { ...(d?.prefs ?? {}), fieldType: this.fieldType, noteType };
    if (!prefs.automaticJournalAbbreviations) prefs.automaticJournalAbbreviations = false;
    if (chosen.delayCitationUpdates !== undefined) prefs.delayCitationUpdates = chosen.delayCitationUpdates;
    this.#data = {
      sessionID: d?.sessionID ?? randomId(),
      zoteroVersion: this.o.version,
      dataVersion: DATA_VERSION,
      style: {
        styleID: style.styleID,
        ...(chosen.locale ? { locale: chosen.locale } : {}),
        hasBibliography: facts.hasBibliography,
        bibliographyStyleHasBeenSet:
          d?.style.styleID === style.styleID ? (d?.style.bibliographyStyleHasBeenSet ?? false) : false,
      },
      prefs,
    };
  }

  async #style(): Promise<ResolvedStyle> {
    if (this.#resolved) return this.#resolved;
    try {
      return (this.#resolved = await this.o.styles.resolve(this.#data!.style.styleID));
    } catch (err) {
      throw new AlertError(
        `${err instanceof Error ? err.message : String(err)} Choose another style in Document Preferences.`,
      );
    }
  }

  /**
   * Zotero's getSession for a document whose style the library lacks: a style from zotero.org or
   * citationstyles.org is installed without asking (from the shipped styles repository here), any
   * other after a Yes; when it cannot be installed, Zotero's alert, then Document Preferences
   * (cancelling them leaves the document as it was).
   */
  async #ensureStyle(): Promise<void> {
    const styleID = this.#data!.style.styleID;
    try {
      this.#resolved = await this.o.styles.resolve(styleID);
      return;
    } catch (err) {
      if (!(err instanceof StyleMissing)) throw new AlertError(err instanceof Error ? err.message : String(err));
    }
    let installed: ResolvedStyle | null = null;
    if (
      TRUSTED_STYLE_SOURCE.test(styleID) ||
      (await this.#call(
        'Document.displayAlert',
        `The citation style used in this document is missing. Would you like to install it from ${styleID}?`,
        ICON_WARNING,
        BUTTONS_YES_NO,
      ))
    ) {
      try {
        if (!this.o.styles.install) throw new StyleMissing(styleID);
        installed = await this.o.styles.install(styleID);
      } catch {
        await this.#call(
          'Document.displayAlert',
          `The citation style ${styleID} could not be found.`,
          ICON_WARNING,
          BUTTONS_OK,
        );
      }
    }
    if (installed) {
      this.#resolved = installed;
      this.#data!.style.styleID = installed.styleID;
    } else await this.#docPrefs();
  }

  async #getFields(): Promise<DocField[]> {
    if (this.#fields) return this.#fields;
    const raw = await this.#call('Document.getFields', this.fieldType);
    if (!Array.isArray(raw)) throw new Error('the word processor answered getFields with something other than a list');
    this.#fields = raw.map((f, i): DocField => {
      const o = (f ?? {}) as Record<string, unknown>;
      if (o.id === undefined) throw new Error(`field ${i + 1} from the word processor has no id`);
      return {
        id: String(o.id),
        code: typeof o.code === 'string' ? o.code : '',
        text: typeof o.text === 'string' ? o.text : '',
        noteIndex: Number(o.noteIndex) || 0,
        ...(typeof o.adjacent === 'boolean' ? { adjacent: o.adjacent } : {}),
      };
    });
    return this.#fields;
  }

  async #cursorField(): Promise<DocField | null> {
    const f = (await this.#call('Document.cursorInField', this.fieldType)) as Record<string, unknown> | null | false;
    if (!f || f.id === undefined) return null;
    return {
      id: String(f.id),
      code: typeof f.code === 'string' ? f.code : '',
      text: typeof f.text === 'string' ? f.text : '',
      noteIndex: Number(f.noteIndex) || 0,
    };
  }

  /** Zotero's Session.addField: may we insert here, then a new field with a TEMP code. */
  async #addField(note: boolean): Promise<DocField> {
    if (!(await this.#call('Document.canInsertField', this.fieldType)))
      throw new AlertError('A citation cannot be inserted here (the cursor is inside a link or another field).');
    const f = (await this.#call(
      'Document.insertField',
      this.fieldType,
      note ? Number(this.#data!.prefs.noteType ?? 0) : 0,
    )) as Record<string, unknown> | null;
    if (!f || f.id === undefined) throw new Error('the word processor did not say which field it inserted');
    await this.#call('Field.setCode', String(f.id), 'TEMP');
    this.#fields = null;
    return {
      id: String(f.id),
      code: 'TEMP',
      text: typeof f.text === 'string' ? f.text : '',
      noteIndex: Number(f.noteIndex) || 0,
    };
  }

  /** Reads every field of the document: its citations (with their items) and bibliographies. */
  async #read(): Promise<Reading> {
    const fields = await this.#getFields();
    const reading: Reading = {
      fields,
      citations: [],
      bibliographies: [],
      items: new Map(),
      uris: new Map(),
      embedded: new Map(),
    };
    const codes: { field: DocField; index: number; code: CitationCode }[] = [];
    let n = 0;
    for (const [index, field] of fields.entries()) {
      const kind = fieldKind(field.code);
      if (kind === 'citation') {
        n++;
        try {
          codes.push({
            field,
            index,
            code: parseCitationCode(field.code, `citation ${n} (“${field.text.slice(0, 60)}”)`),
          });
        } catch (err) {
          await this.#quietly('Field.select', field.id);
          throw new AlertError(
            `${(err as Error).message}\n\nCitewise has selected it. Delete it and insert the citation again (or undo the edit that damaged it), then retry.`,
          );
        }
      } else if (kind === 'bibliography') {
        reading.bibliographies.push({
          field,
          index,
          code: parseBibliographyCode(field.code, `the bibliography (field ${index + 1})`),
        });
      }
    }
    await this.#resolveItems(
      codes.flatMap((c) => c.code.citationItems),
      reading,
    );
    for (const { field, index, code } of codes) {
      code.citationID ??= randomId();
      reading.citations.push({ field, index, code, cluster: this.#cluster(code, field.noteIndex) });
    }
    // Two citations with one id (a citation copied and pasted): the later one gets a new id, as Zotero does.
    const seen = new Set<string>();
    for (const c of reading.citations) {
      if (seen.has(c.code.citationID!)) c.code.citationID = c.cluster.citationID = randomId();
      seen.add(c.code.citationID!);
    }
    return reading;
  }

  #cluster(code: CitationCode, noteIndex: number): Cluster {
    return {
      citationID: code.citationID!,
      citationItems: code.citationItems.map((it) => ({
        id: String(it.id),
        ...(it.locator !== undefined ? { locator: it.locator } : {}),
        ...(it.label !== undefined ? { label: it.label } : {}),
        ...(it.prefix !== undefined ? { prefix: it.prefix } : {}),
        ...(it.suffix !== undefined ? { suffix: it.suffix } : {}),
        ...(it['suppress-author'] ? { 'suppress-author': true } : {}),
        ...(it['author-only'] ? { 'author-only': true } : {}),
      })),
      properties: { noteIndex, ...(code.properties.unsorted ? { unsorted: true } : {}) },
    };
  }

  /**
   * Finds each cited item: in the library by the Zotero key of its URIs (or, for a bare number, its
   * id); otherwise from the data embedded in the code, under a session id, as Zotero does. Sets
   * each item's id to the one its cluster will use.
   */
  async #resolveItems(items: CitationItem[], reading: Reading): Promise<void> {
    const keys = new Set<string>();
    for (const it of items)
      for (const u of it.uris ?? []) {
        const k = itemKeyOfUri(u);
        if (k) keys.add(k);
      }
    const byKey = await this.o.library.byKeys([...keys]);
    const ids = new Set<number>();
    const found = new Map<CitationItem, number>();
    for (const it of items) {
      let id: number | undefined;
      for (const u of it.uris ?? []) {
        const hit = byKey.get(itemKeyOfUri(u) ?? '');
        if (hit) {
          id = hit.id;
          break;
        }
      }
      if (id === undefined && !it.uris?.length && typeof it.id === 'number') id = it.id;
      if (id !== undefined) {
        found.set(it, id);
        ids.add(id);
      }
    }
    const byId = await this.o.library.byIds([...ids]);
    const embeddedByUri = new Map<string, string>();
    for (const it of items) {
      const id = found.get(it);
      const lib = id !== undefined ? byId.get(id) : undefined;
      if (lib) {
        it.id = id!;
        reading.items.set(String(id), lib.csl);
        reading.uris.set(String(id), [`${this.o.uriPrefix}${lib.key}`]);
        continue;
      }
      if (!it.itemData) {
        throw new AlertError(
          `A cited item (${(it.uris ?? []).join(', ') || `id ${String(it.id)}`}) is neither in the Citewise library nor embedded in the document. Delete the citation and insert it again.`,
        );
      }
      const again = (it.uris ?? []).map((u) => embeddedByUri.get(u)).find((x) => x !== undefined);
      // The same id in every transaction (from its URIs, or its data), so a warm engine still matches.
      const anon =
        again ??
        `${this.#data!.sessionID}/${createHash('sha1')
          .update(it.uris?.length ? it.uris.join('\n') : JSON.stringify(it.itemData))
          .digest('base64url')
          .slice(0, 12)}`;
      for (const u of it.uris ?? []) embeddedByUri.set(u, anon);
      it.id = anon;
      reading.items.set(anon, { ...it.itemData, id: anon } as CslItem);
      reading.uris.set(anon, it.uris ?? []);
      reading.embedded.set(anon, it.itemData);
    }
  }

  /** The citation dialog: the picker with the citation's current cites; then the document is updated. */
  async #cite(field: DocField | null): Promise<void> {
    let target = field;
    let existing: CitationCode | null = null;
    if (target) {
      const kind = fieldKind(target.code);
      if (kind === 'bibliography')
        throw new AlertError('The cursor is in the bibliography. Use “Add/Edit Bibliography” to change it.');
      if (kind === 'citation') existing = parseCitationCode(target.code, 'the citation at the cursor');
    }
    if (
      existing?.properties.plainCitation &&
      (existing.properties.dontUpdate || target!.text !== existing.properties.plainCitation)
    ) {
      const ok = await this.#call(
        'Document.displayAlert',
        `You have changed this citation’s text by hand. Editing it in Citewise replaces your changes.\n\nOriginal: ${existing.properties.plainCitation}\nModified: ${target!.text}`,
        ICON_WARNING,
        BUTTONS_OK_CANCEL,
      );
      if (!ok) throw new UserCancelled('editing citation');
    }
    // As Zotero: the new field first, then the document's fields read once, the new one among them.
    const created = !target || fieldKind(target.code) === 'temp';
    if (!target) target = await this.#addField(true);
    const reading = await this.#read();
    const current: ChosenCite[] = [];
    if (existing && target) {
      const mine = reading.citations.find((c) => c.field.id === target!.id);
      for (const it of mine?.code.citationItems ?? [])
        current.push({
          item: it.id,
          ...(it.locator !== undefined ? { locator: it.locator } : {}),
          ...(it.label !== undefined ? { label: it.label } : {}),
          ...(it.prefix !== undefined ? { prefix: it.prefix } : {}),
          ...(it.suffix !== undefined ? { suffix: it.suffix } : {}),
          ...(it['suppress-author'] ? { suppressAuthor: true } : {}),
        });
    }
    const chosen = await this.o.dialogs.chooseCites(current, reading.embedded, this.signal);
    if (this.signal.aborted) throw new TransportClosed('the word processor is gone');
    if (!chosen || chosen.length === 0) {
      if (created) await this.#quietly('Field.delete', target.id);
      throw new UserCancelled('citation dialog');
    }
    const libIds = chosen.map((c) => c.item).filter((x): x is number => typeof x === 'number');
    const byId = await this.o.library.byIds(libIds);
    const citationItems: CitationItem[] = chosen.map((c) => {
      const key = String(c.item);
      if (typeof c.item === 'number') {
        const lib = byId.get(c.item);
        if (!lib) throw new AlertError(`Item ${c.item} is no longer in the Citewise library.`);
        reading.items.set(key, lib.csl);
        reading.uris.set(key, [`${this.o.uriPrefix}${lib.key}`]);
      } else if (!reading.items.has(key)) throw new AlertError(`The chosen item ${key} is not in this document.`);
      return {
        id: c.item,
        ...(c.locator ? { locator: c.locator, label: c.label ?? 'page' } : {}),
        ...(c.prefix ? { prefix: c.prefix } : {}),
        ...(c.suffix ? { suffix: c.suffix } : {}),
        ...(c.suppressAuthor ? { 'suppress-author': true } : {}),
      };
    });
    const citationID = existing?.citationID ?? randomId();
    const code: CitationCode = { citationID, properties: { noteIndex: target.noteIndex }, citationItems };
    // The citation's place among the others, by the document's field order.
    const fields = await this.#getFields();
    const at = fields.findIndex((f) => f.id === target!.id);
    const others = reading.citations.filter((c) => c.field.id !== target!.id);
    const position = at === -1 ? others.length : others.filter((c) => c.index < at).length;
    const fieldAfter = at === -1 ? target : (fields[at] ?? target);
    const mine: Citation = {
      field: { ...fieldAfter, code: 'TEMP' },
      index: at === -1 ? Number.MAX_SAFE_INTEGER : at,
      code,
      cluster: this.#cluster(code, fieldAfter.noteIndex),
    };
    reading.citations = [...others.slice(0, position), mine, ...others.slice(position)];
    if (this.#data!.prefs.delayCitationUpdates === true) await this.#writeDelayed(reading, mine);
    else await this.#update(reading, { forceBibliography: false, inserted: mine });
  }

  /**
   * Formats the document's citations and writes those whose text or code changed, then the
   * bibliography (Zotero's updateDocument). With `inserted`, one processCitationCluster call on the
   * warm engine when it still matches the document; otherwise the state is rebuilt.
   */
  async #update(
    reading: Reading,
    o: {
      forceBibliography: boolean;
      /** Rebuild the engine even when a warm one matches (a new style or note type). */
      rebuild?: boolean;
      resetText?: boolean;
      inserted?: Citation;
    },
  ): Promise<void> {
    const style = await this.#style();
    const data = this.#data!;
    const engineKey = `${data.sessionID}\u0000${style.styleID}\u0000${data.style.locale ?? ''}\u0000${this.#outputFormat}\u0000${String(data.prefs.noteType ?? 0)}`;
    const sig = (c: Citation): string =>
      JSON.stringify([c.cluster, c.cluster.citationItems.map((it) => reading.items.get(it.id))]);
    const signature = reading.citations.map(sig);
    const ids = reading.citations.map((c) => c.cluster.citationID);
    let warm = this.warm.get(engineKey);
    // The warm engine holds this document when every other citation (and its items' data) is as it
    // left them: then an insert or an edit is one processCitationCluster, and a refresh nothing at all.
    const mine = o.inserted?.cluster.citationID;
    const others = (sigs: string[], of: string[]) => sigs.filter((_, i) => of[i] !== mine);
    const reusable =
      !o.rebuild &&
      warm !== undefined &&
      (() => {
        const a = others(warm.signature, warm.ids);
        const b = others(signature, ids);
        return a.length === b.length && a.every((x, i) => x === b[i]);
      })();
    let bibChanged = true;
    if (reusable && warm) {
      if (o.inserted) {
        for (const [k, v] of reading.items) warm.items.set(k, v);
        const position = reading.citations.indexOf(o.inserted);
        const { changed, bibchange } = warm.engine.upsert(o.inserted.cluster, position);
        for (const [id, text] of changed) warm.texts.set(id, text);
        bibChanged = bibchange || warm.bibliography === undefined;
      } else bibChanged = warm.bibliography === undefined;
      warm.signature = signature;
      warm.ids = ids;
    } else {
      const items = new Map(reading.items);
      const engine = new ClusterFormatter({
        styleXml: style.xml,
        lang: data.style.locale,
        locales: this.o.styles.locales,
        item: (id) => items.get(id),
        format: this.#outputFormat,
      });
      this.stats.rebuilt = true;
      const texts = engine.rebuild(reading.citations.map((c) => c.cluster));
      warm = { key: engineKey, engine, signature, ids, items, texts };
      this.warm.delete(engineKey);
      this.warm.set(engineKey, warm);
      while (this.warm.size > 8) this.warm.delete(this.warm.keys().next().value!);
    }
    const texts = warm.texts;

    // Citations, last first (as Zotero: plugins that renumber fields as text changes stay consistent).
    for (const c of [...reading.citations].reverse()) {
      const p = c.code.properties;
      const formatted = p.custom ?? texts.get(c.cluster.citationID) ?? p.formattedCitation;
      let setText = false;
      if (!p.dontUpdate) {
        const edited = p.plainCitation !== undefined && c.field.text !== p.plainCitation && c !== o.inserted;
        if (edited && !o.resetText) {
          await this.#call('Field.select', c.field.id);
          const keep = await this.#call(
            'Document.displayAlert',
            `You have changed this citation’s text by hand since it was generated. Keep your change and stop updating this citation?\n\nOriginal: ${p.plainCitation}\nModified: ${c.field.text}`,
            ICON_CAUTION,
            BUTTONS_YES_NO,
          );
          if (keep) p.dontUpdate = true;
        }
        if (
          !p.dontUpdate &&
          (o.resetText || c === o.inserted || edited || (formatted !== undefined && formatted !== p.formattedCitation))
        )
          setText = true;
      }
      if (setText && formatted !== undefined) {
        // Word keeps the dashed underline of a delayed citation unless told to clear it (as Zotero does).
        const wasDelayed = this.#outputFormat === 'rtf' && p.formattedCitation?.includes(DELAYED_RTF);
        await this.#call('Field.setText', c.field.id, wasDelayed ? `\\ulclear{${formatted}}` : formatted, true);
        p.formattedCitation = formatted;
        p.plainCitation = this.#outputFormat === 'html' ? plainText(formatted) : formatted;
      }
      await this.#writeCode(c, reading);
    }

    // Bibliographies.
    if (reading.bibliographies.length > 0 && reading.citations.length > 0) {
      if (bibChanged) warm.bibliography = warm.engine.bibliography();
      const bib = warm.bibliography;
      let text = '{Bibliography}';
      if (bib) {
        const body = this.#outputFormat === 'rtf' ? bib.entries.join('\\\r\n') : bib.entries.join('');
        text = bib.start + body + bib.end;
        if (!data.style.bibliographyStyleHasBeenSet) {
          const l = bib.layout;
          await this.#call(
            'Document.setBibliographyStyle',
            l.firstLineIndent,
            l.indent,
            l.lineSpacing,
            l.entrySpacing,
            l.tabStops,
            l.tabStops.length,
          );
          data.style.bibliographyStyleHasBeenSet = true;
        }
      }
      for (const b of [...reading.bibliographies].reverse()) {
        const code = bibliographyCode(b.code);
        if (code !== b.field.code) await this.#call('Field.setCode', b.field.id, code);
        if (o.forceBibliography || text !== b.field.text) await this.#call('Field.setText', b.field.id, text, true);
      }
    }
  }

  /**
   * Items the document cites that the library lacks (a document from a co-author's Zotero): offered
   * for import once per document session. Once imported (one import, one undo step), the citations
   * are relinked to the new library items before this refresh formats them: their URIs become the
   * library's and their embedded data the library item's. Declined, they keep their embedded data.
   */
  async #offerImport(reading: Reading): Promise<void> {
    const session = this.#data!.sessionID ?? '';
    if (this.offered.has(session)) return;
    this.offered.add(session);
    const items = [...reading.embedded.values()];
    const titles = items
      .slice(0, 5)
      .map((i) => `• ${typeof i.title === 'string' ? i.title : '(untitled)'}`)
      .join('\n');
    const yes = await this.#call(
      'Document.displayAlert',
      `${items.length === 1 ? 'One cited item is' : `${items.length} cited items are`} not in your Citewise library; the citations use the data stored in the document.\n\n${titles}${items.length > 5 ? '\n…' : ''}\n\nAdd ${items.length === 1 ? 'it' : 'them'} to the library?`,
      ICON_WARNING,
      BUTTONS_YES_NO,
    );
    if (!yes) return;
    const clean = items.map((i) => {
      const { id: _id, ...rest } = i;
      return rest as CslItem;
    });
    const anons = [...reading.embedded.keys()];
    const made = await this.o.library.importItems(clean);
    const byId = await this.o.library.byIds(made.filter((x): x is number => x !== null));
    const relinked = new Map<string, number>();
    anons.forEach((anon, i) => {
      const id = made[i];
      const lib = id == null ? undefined : byId.get(id);
      if (id == null || !lib) return;
      relinked.set(anon, id);
      reading.items.delete(anon);
      reading.uris.delete(anon);
      reading.embedded.delete(anon);
      reading.items.set(String(id), lib.csl);
      reading.uris.set(String(id), [`${this.o.uriPrefix}${lib.key}`]);
    });
    if (relinked.size === 0) return;
    for (const c of reading.citations) {
      let changed = false;
      for (const it of c.code.citationItems) {
        const id = relinked.get(String(it.id));
        if (id === undefined) continue;
        it.id = id;
        changed = true;
      }
      if (changed) c.cluster = this.#cluster(c.code, c.field.noteIndex);
    }
  }

  /** Writes a citation's code (its URIs and embedded item data as `reading` has them) when it changed. */
  async #writeCode(c: Citation, reading: Reading): Promise<void> {
    c.code.properties.noteIndex = c.field.noteIndex;
    const written = citationCode({
      citationID: c.code.citationID,
      properties: c.code.properties,
      citationItems: c.code.citationItems.map((it) => ({
        ...it,
        uris: reading.uris.get(String(it.id)) ?? it.uris ?? [],
        itemData: this.#itemData(String(it.id), reading),
      })),
    });
    if (written !== c.field.code) await this.#call('Field.setCode', c.field.id, written);
  }

  /**
   * Zotero's writeDelayedCitation: with delayed updates, the new or edited citation alone is
   * formatted (on its own, as if first in the document), written with Zotero's mark (a dashed
   * underline in RTF, its delayed-zotero-citation-updates div in HTML), and the bibliography says
   * that it waits for Refresh. No other citation is touched; Refresh brings them all up to date.
   */
  async #writeDelayed(reading: Reading, c: Citation): Promise<void> {
    const style = await this.#style();
    const data = this.#data!;
    const p = c.code.properties;
    if (!p.dontUpdate) {
      let text = p.custom;
      if (text === undefined) {
        const items = new Map(reading.items);
        const engine = new ClusterFormatter({
          styleXml: style.xml,
          lang: data.style.locale,
          locales: this.o.styles.locales,
          item: (id) => items.get(id),
          format: this.#outputFormat,
        });
        text = engine.preview(c.cluster);
      }
      if (this.#outputFormat === 'rtf') text = `${DELAYED_RTF}{${text}}`;
      else if (this.#outputFormat === 'html') text = `${DELAYED_HTML[0]}${text}${DELAYED_HTML[1]}`;
      await this.#call('Field.setText', c.field.id, text, true);
      p.formattedCitation = text;
      p.plainCitation = this.#outputFormat === 'html' ? plainText(text) : text;
    }
    await this.#writeCode(c, reading);
    const bib = reading.bibliographies.at(-1);
    if (bib && bib.field.text !== DELAYED_BIBLIOGRAPHY)
      await this.#call('Field.setText', bib.field.id, DELAYED_BIBLIOGRAPHY, false);
  }

  /** The item data to embed: the library's CSL-JSON under the cluster's id, as Zotero embeds it. */
  #itemData(id: string, reading: Reading): CslItem | undefined {
    const item = reading.embedded.get(id) ?? reading.items.get(id);
    // A library item's id is its number, as Zotero embeds retrieveItem(itemID).
    return item ? ({ ...item, id: /^\d+$/.test(id) ? Number(id) : id } as unknown as CslItem) : undefined;
  }
}

/** The transport lost the document (the plugin disconnected or timed out): nothing more can be said to it. */
export class TransportClosed extends Error {
  override name = 'TransportClosed';
}
