// The local server's routes: each protocol (Better BibTeX's endpoints, the picker, and later the
// Zotero Connector, Zotero's local Web API and the word-processor integration) adds its paths here
// with the methods they take. A path no route has is 404, whatever the method; a known path asked
// with a method it does not take is 405 with an Allow header.
import type { IncomingMessage, ServerResponse } from 'node:http';

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

export interface Route {
  /** Upper case: GET, POST… HEAD is answered like GET when GET is listed. */
  readonly methods: readonly string[];
  readonly handle: RouteHandler;
  /**
   * Who may call: 'editor' (the default) applies guard.ts's refusal of web pages and foreign Hosts
   * before the handler runs; 'own' leaves it to the handler (the picker checks its own origin).
   */
  readonly guard: 'editor' | 'own';
}

export class RouteTable {
  readonly #exact = new Map<string, Route>();
  readonly #prefixes: [string, Route][] = [];

  /** Routes one or more exact paths; a path routed twice throws (two protocols must not collide). */
  add(
    paths: string | readonly string[],
    methods: readonly string[],
    handle: RouteHandler,
    guard: Route['guard'] = 'editor',
  ): this {
    for (const path of typeof paths === 'string' ? [paths] : paths) {
      if (this.#exact.has(path)) throw new Error(`the path ${path} is routed twice`);
      this.#exact.set(path, { methods, handle, guard });
    }
    return this;
  }

  /** Routes every path under `prefix` (which ends in "/"), longest prefix first. */
  addPrefix(prefix: string, methods: readonly string[], handle: RouteHandler, guard: Route['guard'] = 'editor'): this {
    if (!prefix.endsWith('/')) throw new Error(`a route prefix ends in "/": ${prefix}`);
    if (this.#prefixes.some(([p]) => p === prefix)) throw new Error(`the prefix ${prefix} is routed twice`);
    this.#prefixes.push([prefix, { methods, handle, guard }]);
    this.#prefixes.sort((a, b) => b[0].length - a[0].length);
    return this;
  }

  match(pathname: string): Route | undefined {
    return this.#exact.get(pathname) ?? this.#prefixes.find(([p]) => pathname.startsWith(p))?.[1];
  }

  /** Whether `route` takes `method` (HEAD where it takes GET). */
  static allows(route: Route, method: string | undefined): boolean {
    const m = (method ?? '').toUpperCase();
    return route.methods.includes(m) || (m === 'HEAD' && route.methods.includes('GET'));
  }
}
