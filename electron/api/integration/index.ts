// Zotero's word-processor integration over HTTP (/connector/document/execCommand and /respond), on
// the editor API's port, with the Connector's rules for who may call (connector/guard.ts). The
// commands (session.ts) read and write Zotero's own field codes (codes.ts) and format with
// citeproc-js's citation-cluster mode (engine.ts); the user picks items in Citewise's picker.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ResultOf } from '../../../shared/ipc';
import type { CslItem } from '../../../shared/model/csl';
// The JSON, not styles.ts: the editor API starts without loading the formatter.
import BUILT_IN_CSL_STYLES from '../../core/formats/cite/built-in-styles.json';
import { defaultCslDir, directoryAssets, type CslAssets } from '../../core/formats/cite/assets';
import { resolveLocale } from '../../core/formats/cite/locales';
import { styleCollection } from '../../core/formats/cite/style-collection';
import { UserStyles } from '../../core/formats/cite/user-styles';
import { connectorHostAllowed, connectorRequestAllowed } from '../connector/guard';
import type { ApiCore } from '../library';
import type { PickerHub } from '../picker';
import { ZOTERO_VERSION } from '../connector';
import type { IntegrationSessions } from './session';
import {
  type ChosenCite,
  type DocPrefs,
  type IntegrationDialogs,
  type IntegrationLibrary,
  type ResolvedStyle,
  StyleMissing,
  type StyleSource,
} from './session';
import { HttpTransport, type Reply } from './transport';
import { styleFacts } from './engine';
import { parsePrefsAnswer, prefsOptions, type PrefsOptions } from './prefs-page';

export const EXEC_PATH = '/connector/document/execCommand';
export const RESPOND_PATH = '/connector/document/respond';
const MAX_BODY = 32 * 1024 * 1024;

/** The URI prefix of Citewise's items in documents (Zotero's local-library form; the key follows). */
export const ITEM_URI_PREFIX = 'http://zotero.org/users/local/citewise/items/';

/** The library through the core's worker: items by Zotero key (given on first use) and their CSL-JSON. */
export function coreIntegrationLibrary(core: () => Promise<ApiCore>): IntegrationLibrary {
  return libraryIntegration(
    async () => (await core()).library,
    async (items) => {
      // One undo step; duplicates are linked to the item the library had.
      const made = await (await core()).invoke('library.items.addCited', { items });
      if (!made.ok) throw new Error(made.error.message);
      return made.value as ResultOf<'library.items.addCited'>;
    },
  );
}

/**
 * The library's items by Zotero key and by id, from the library store (`getLib`, wrapped: the store
 * is a worker proxy, which an await would take for a promise); `importItems` adds items.
 */
export function libraryIntegration(
  getLib: () => Promise<{ lib: ApiCore['library']['lib'] }>,
  importItems: IntegrationLibrary['importItems'],
): IntegrationLibrary {
  return {
    async byKeys(keys) {
      const out = new Map<string, { id: number; csl: CslItem }>();
      if (keys.length === 0) return out;
      const { lib } = await getLib();
      const objects = await Promise.all(keys.map((k) => lib.zoteroObject(k)));
      const ids = objects.flatMap((o) => (o && o.kind === 'item' ? [o.id] : []));
      const csl = ids.length ? await lib.cslOf(ids) : [];
      const byId = new Map(ids.map((id, i) => [id, csl[i]!]));
      keys.forEach((k, i) => {
        const o = objects[i];
        const c = o ? byId.get(o.id) : undefined;
        if (o && c) out.set(k, { id: o.id, csl: c });
      });
      return out;
    },
    async byIds(ids) {
      const out = new Map<number, { key: string; csl: CslItem }>();
      if (ids.length === 0) return out;
      const { lib } = await getLib();
      const [keys, csl] = await Promise.all([lib.zoteroKeysOf('item', [...ids]), lib.cslOf([...ids])]);
      ids.forEach((id, i) => {
        if (csl[i]) out.set(id, { key: keys[i]!, csl: csl[i]! });
      });
      return out;
    },
    importItems,
  };
}

/** The styles the user installed (Settings → Citations and its styles browser), as Export finds them. */
export interface InstalledStyles {
  /** The XML of the style installed under this id, or null. */
  xml(id: string): Promise<string | null>;
  /** Installs a style of the shipped CSL styles repository by its name, as the styles browser does. */
  install(name: string): Promise<void>;
}

/** The installed styles of the core's data folder (its UserStyles store); installing goes through the core. */
export function coreInstalledStyles(core: () => Promise<ApiCore>): InstalledStyles {
  let store: Promise<UserStyles> | undefined;
  const styles = (): Promise<UserStyles> =>
    (store ??= (async () => {
      const info = await (await core()).invoke('app.info', {});
      if (!info.ok) throw new Error(info.error.message);
      return new UserStyles(join((info.value as ResultOf<'app.info'>).dataDir, 'styles'));
    })());
  return {
    xml: async (id) => (await styles()).xml(id),
    async install(name) {
      const done = await (await core()).invoke('styles.collection.install', { name });
      if (!done.ok) throw new Error(done.error.message);
    },
  };
}

/** The name a style id ends with (http://www.zotero.org/styles/NAME, or a Citewise id). */
const styleName = (styleID: string): string =>
  styleID
    .replace(/^https?:\/\/(?:www\.)?(?:zotero\.org|citationstyles\.org)\/styles\//, '')
    .replace(/\.csl$/, '')
    .replace(/\/+$/, '');

/** The id a style gives itself in its <info><id> (Zotero writes that into documents), when it is a URL. */
const ownStyleId = (xml: string): string | undefined =>
  /<info\b[\s\S]*?<id>\s*(https?:\/\/[^<\s]+)\s*<\/id>/.exec(xml)?.[1];

/**
 * Zotero style ids (http://www.zotero.org/styles/NAME) and Citewise's: the built-in styles, then the
 * ones the user installed (as Export resolves them); a document naming any other style is offered
 * the shipped CSL styles repository's copy, installed as the styles browser installs it.
 */
export function assetStyles(given?: CslAssets, installed?: InstalledStyles): StyleSource {
  let read: CslAssets | undefined = given;
  const assets = (): CslAssets => (read ??= directoryAssets(defaultCslDir()));
  const builtInByName = new Map(Object.entries(BUILT_IN_CSL_STYLES).map(([id, name]) => [name, id]));
  const builtIn = (name: string): ResolvedStyle | undefined => {
    const id = Object.hasOwn(BUILT_IN_CSL_STYLES, name) ? name : builtInByName.get(name);
    if (!id) return undefined;
    const cslName = BUILT_IN_CSL_STYLES[id as keyof typeof BUILT_IN_CSL_STYLES];
    return { styleID: `http://www.zotero.org/styles/${cslName}`, xml: assets().styleXml(id) };
  };
  const user = async (name: string): Promise<ResolvedStyle | undefined> => {
    const xml = /^[A-Za-z0-9._-]+$/.test(name) ? await installed?.xml(name) : null;
    return xml ? { styleID: ownStyleId(xml) ?? `http://www.zotero.org/styles/${name}`, xml } : undefined;
  };
  return {
    async resolve(styleID) {
      const name = styleName(styleID);
      const found = builtIn(name) ?? (await user(name));
      if (found) return found;
      throw new StyleMissing(`Citewise has no citation style “${styleID}” (neither built in nor installed).`);
    },
    async install(styleID) {
      const name = styleName(styleID);
      const collection = styleCollection();
      if (!installed || !collection.available || !/^[A-Za-z0-9._-]+$/.test(name))
        throw new StyleMissing(`Citewise cannot install the citation style “${styleID}”.`);
      await installed.install(name);
      const found = await user(name);
      if (!found) throw new StyleMissing(`The citation style “${styleID}” was not installed.`);
      return found;
    },
    locales: (lang) => {
      const tag = resolveLocale(lang, assets().manifest.locales);
      return tag ? assets().localeXml(tag) : undefined;
    },
  };
}

/**
 * The dialogs through Citewise's picker: the user picks items (with locators, prefixes, suffixes and
 * suppress-author) in the picker window; a new document takes the style and locale of Settings.
 */
export function pickerDialogs(
  pickers: PickerHub,
  origin: () => string,
  core: () => Promise<ApiCore>,
  styles?: StyleSource,
): IntegrationDialogs {
  return {
    async chooseCites(_current, _embedded, signal): Promise<ChosenCite[] | null> {
      const picks = await pickers.pick(origin(), signal);
      if (!picks || picks.length === 0) return null;
      const lib = (await core()).library.lib;
      const ids = await Promise.all(picks.map((p) => lib.findByCitationKey(p.citationKey)));
      return picks.flatMap((p, i) =>
        ids[i] == null
          ? []
          : [
              {
                item: ids[i],
                ...(p.locator ? { locator: p.locator, label: p.label ?? 'page' } : {}),
                ...(p.prefix ? { prefix: p.prefix } : {}),
                ...(p.suffix ? { suffix: p.suffix } : {}),
                ...(p.suppressAuthor ? { suppressAuthor: true } : {}),
              },
            ],
      );
    },
    // Document Preferences in a page of the picker's kind: the built-in and installed styles (by the
    // ids documents use), the locale, footnotes or endnotes for a note style, delayed updates. A new
    // document starts from the style and locale chosen in Settings.
    async documentPreferences(current, signal, notes = ['footnotes']): Promise<DocPrefs | null> {
      const c = await core();
      const [settings, list] = await Promise.all([c.invoke('settings.get', {}), c.invoke('library.styles.list', {})]);
      if (!list.ok) throw new Error(list.error.message);
      const offered: PrefsOptions['styles'] = [];
      for (const s of list.value as ResultOf<'library.styles.list'>) {
        try {
          const r = styles ? await styles.resolve(s.id) : { styleID: s.id, xml: '' };
          if (!offered.some((o) => o.id === r.styleID))
            offered.push({ id: r.styleID, title: s.title, note: styleFacts(r.xml).note });
        } catch {
          // a style the formatter lists but whose file is gone: not offered
        }
      }
      let start: DocPrefs = current ?? { styleID: 'apa', noteType: 1 };
      if (!current && settings.ok) {
        const { citationStyle, locale } = settings.value as ResultOf<'settings.get'>;
        start = { styleID: citationStyle, locale, noteType: 1 };
      }
      // Settings name a style by Citewise's id; the page lists the ids documents use.
      if (styles && !offered.some((o) => o.id === start.styleID))
        start = {
          ...start,
          styleID: await Promise.resolve(styles.resolve(start.styleID)).then(
            (r) => r.styleID,
            () => start.styleID,
          ),
        };
      const options = prefsOptions(offered, start, notes);
      return pickers.ask(origin(), signal, {
        kind: 'docprefs',
        options,
        parse: (body) => parsePrefsAnswer(body, options),
      });
    },
  };
}

export interface IntegrationContext {
  port: () => number;
  sessions: IntegrationSessions;
  respondTimeoutMs?: number;
}

export class IntegrationEndpoints {
  readonly #ctx: IntegrationContext;
  readonly transport: HttpTransport;
  readonly sessions: IntegrationSessions;

  constructor(ctx: IntegrationContext) {
    this.#ctx = ctx;
    this.sessions = ctx.sessions;
    this.transport = new HttpTransport((command, call, signal) => ctx.sessions.run(command, call, signal), {
      ...(ctx.respondTimeoutMs !== undefined ? { respondTimeoutMs: ctx.respondTimeoutMs } : {}),
    });
  }

  serves(path: string): boolean {
    return path === EXEC_PATH || path === RESPOND_PATH;
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!connectorHostAllowed(req, this.#ctx.port())) return plain(res, 400, 'Invalid Host header\n');
    if (!connectorRequestAllowed(req, url.pathname)) {
      res.socket?.destroy();
      return;
    }
    if (req.method !== 'POST') return plain(res, 405, `Citewise: ${url.pathname} takes POST.\n`);
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') return plain(res, 400, `Citewise: ${url.pathname} takes application/json.\n`);
    let body: unknown;
    try {
      body = JSON.parse(await readText(req));
    } catch (err) {
      return plain(res, 400, `Citewise: the body of ${url.pathname} is not JSON (${(err as Error).message}).\n`);
    }
    let answered = false;
    const reply = ((status: number, contentType: string, text: string) => {
      if (answered) return;
      answered = true;
      if (res.destroyed) return;
      res.writeHead(status, { 'Content-Type': contentType, 'X-Zotero-Version': ZOTERO_VERSION });
      res.end(text);
    }) as Reply;
    reply.onClose = (listener) => {
      res.on('close', () => {
        if (!answered) listener();
      });
    };
    if (url.pathname === EXEC_PATH) this.transport.execCommand(body, reply);
    else this.transport.respond(body, reply);
  }
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}

function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        req.destroy();
        reject(new Error(`larger than ${MAX_BODY / 1024 / 1024} MB`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export { IntegrationSessions } from './session';
