// Zotero's word-processor integration over HTTP (/connector/document/execCommand and /respond), on
// the editor API's port, with the Connector's rules for who may call (connector/guard.ts). The
// commands (session.ts) read and write Zotero's own field codes (codes.ts) and format with
// citeproc-js's citation-cluster mode (engine.ts); the user picks items in Citewise's picker.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResultOf } from '../../../shared/ipc';
import type { CslItem } from '../../../shared/model/csl';
// The JSON, not styles.ts: the editor API starts without loading the formatter.
import BUILT_IN_CSL_STYLES from '../../core/formats/cite/built-in-styles.json';
import { defaultCslDir, directoryAssets, type CslAssets } from '../../core/formats/cite/assets';
import { resolveLocale } from '../../core/formats/cite/locales';
import { styleCollection } from '../../core/formats/cite/style-collection';
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
  type StyleSource,
} from './session';
import { HttpTransport, type Reply } from './transport';

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
      // The project's import (one transaction, one undo step, duplicates merged as any import).
      const result = await (
        await core()
      ).invoke('library.import', {
        text: JSON.stringify(items),
        format: 'csljson',
        fileName: 'word-processor document',
      });
      if (!result.ok) throw new Error(result.error.message);
      return (result.value as ResultOf<'library.import'>).added;
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

/** Zotero style ids (http://www.zotero.org/styles/NAME) and Citewise's: the built-in styles, then the installed collection. */
export function assetStyles(given?: CslAssets): StyleSource {
  let read: CslAssets | undefined = given;
  const assets = (): CslAssets => (read ??= directoryAssets(defaultCslDir()));
  const builtInByName = new Map(Object.entries(BUILT_IN_CSL_STYLES).map(([id, name]) => [name, id]));
  return {
    resolve(styleID) {
      const name = styleID.replace(/^https?:\/\/(?:www\.)?zotero\.org\/styles\//, '').replace(/\.csl$/, '');
      const builtIn = Object.hasOwn(BUILT_IN_CSL_STYLES, name) ? name : builtInByName.get(name);
      if (builtIn) {
        const cslName = BUILT_IN_CSL_STYLES[builtIn as keyof typeof BUILT_IN_CSL_STYLES];
        return { styleID: `http://www.zotero.org/styles/${cslName}`, xml: assets().styleXml(builtIn) };
      }
      const collection = styleCollection();
      if (collection.available) {
        try {
          return { styleID: `http://www.zotero.org/styles/${name}`, xml: collection.xml(name) };
        } catch {
          // not in the collection either
        }
      }
      throw new Error(`Citewise does not have the citation style “${styleID}”.`);
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
    // Document Preferences take the citation style and locale chosen in Citewise's Settings (its
    // style browser is where styles are found and installed); footnotes stay as the document has them.
    async documentPreferences(current): Promise<DocPrefs | null> {
      const settings = await (await core()).invoke('settings.get', {});
      if (!settings.ok) return null;
      const { citationStyle, locale } = settings.value as ResultOf<'settings.get'>;
      return { styleID: citationStyle, locale, noteType: current?.noteType || 1 };
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
