// The local Citation and Literature Data Service: a Fastify server over the generated corpus.
// Every operation of the contract is registered from its operation table, behind the same pipeline:
// injected faults, credentials (401), rate limits (429), scopes (403), request validation (422).
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { serviceOperations, type OperationId, type ServiceOperation } from '../../shared/service/index';
import { requestValidatorsFor, toFastApiDetails } from './contract';
import { ensureCorpus } from './corpus/cache';
import { Corpus, type PaperRow } from './store';
import { ServiceState } from './state';
import { DEFAULT_OPTIONS, type ServiceOptions } from './options';
import { KeyRing, demoKeys, type ApiKey } from './auth';
import { RateLimiter } from './ratelimit';
import { FaultInjector } from './faults';
import { HttpError, type ApiReply, type Context, type Handler } from './http';
import { papersHandlers } from './routes/papers';
import { graphHandlers } from './routes/graph';
import { searchHandlers } from './routes/search';
import { assistantHandlers } from './routes/assistant';
import { referenceCheckHandlers } from './routes/refcheck';
import { evidenceHandlers } from './routes/evidence';

const HANDLERS = {
  ...papersHandlers,
  ...graphHandlers,
  ...searchHandlers,
  ...assistantHandlers,
  ...referenceCheckHandlers,
  ...evidenceHandlers,
} satisfies Record<OperationId, Handler>;

export interface RunningService {
  url: string;
  port: number;
  keys: ApiKey[];
  corpusPath: string;
  /** Milliseconds spent generating (0 when a cached corpus was reused) and starting. */
  timings: { corpusMs: number; generated: boolean; startMs: number };
  app: FastifyInstance;
  corpus: Corpus;
  state: ServiceState;
  close(): Promise<void>;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string): string =>
  `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><body style="font:16px/1.5 system-ui;max-width:46rem;margin:2rem auto"><h1>${escapeHtml(title)}</h1>${body}<p><small>Local Citation and Literature Data Service</small></p></body>`;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `/papers/{doi}` → `/papers/*` (DOIs keep their slashes); `{x}` → `:x`. */
function routeUrl(path: string): string {
  return path.replace('{doi}', '*').replace(/\{([^}]+)\}/g, ':$1');
}

async function readRawBody(request: FastifyRequest): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request.raw) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendError(reply: FastifyReply, error: HttpError, extra: Record<string, string> = {}): FastifyReply {
  return reply
    .code(error.status)
    .headers({ ...extra, ...error.headers })
    .type('application/json')
    .send({ detail: error.detail });
}

export async function startService(partial: Partial<ServiceOptions> = {}): Promise<RunningService> {
  const started = Date.now();
  const options: ServiceOptions = { ...DEFAULT_OPTIONS, ...partial };
  if (options.keys.length === 0) options.keys = demoKeys();
  const corpusStarted = Date.now();
  const { path, generated } = ensureCorpus({
    papers: options.papers,
    seed: options.seed,
    dbPath: options.dbPath,
    log: options.log,
  });
  const corpusMs = Date.now() - corpusStarted;
  const corpus = new Corpus(path);
  const state = new ServiceState();
  const faults = new FaultInjector(options.faults, options.seed);
  const ctx: Context = { corpus, state, options, faults };
  const keyring = new KeyRing(options.keys);
  const limiter = new RateLimiter(
    { perSecond: options.anonymousPerSecond, perMinute: options.anonymousPerMinute },
    { perSecond: options.keyedPerSecond, perMinute: options.keyedPerMinute },
  );

  // close() ends every connection, not only idle ones: a request held by a 'slow' fault or one a client
  // stopped reading must not keep a test's teardown waiting (a CI run once hung 60 s in afterAll there).
  const app = Fastify({
    logger: false,
    bodyLimit: 25 * 1024 * 1024,
    routerOptions: { maxParamLength: 4096 },
    forceCloseConnections: true,
  });
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 1 } });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, _request, reply) => {
    if (error instanceof HttpError) return sendError(reply, error);
    if (
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error instanceof SyntaxError
    ) {
      return reply.code(422).send({
        detail: [{ loc: ['body', 0], msg: `Expecting value: ${error.message}`, type: 'value_error.jsondecode' }],
      });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
      return reply.code(error.statusCode).send({ detail: error.message });
    options.log(`internal error: ${error.stack ?? error.message}`);
    return reply.code(500).send({ detail: 'Internal Server Error' });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not Found' }));

  const register = (operationId: OperationId, op: ServiceOperation): void => {
    const handler: Handler = HANDLERS[operationId];
    // Compiled on first use, so that start-up does not pay for operations nobody calls.
    let compiled: ReturnType<typeof requestValidatorsFor> | undefined;
    app.route({
      method: op.method.toUpperCase() as 'GET' | 'POST',
      url: routeUrl(op.path),
      handler: async (request, reply) => {
        const forced = request.headers['x-citewise-fault'];
        const forcedFault = Array.isArray(forced) ? forced[0] : forced;
        const delay = faults.delayMs(options.latencyMs);
        if (delay > 0) await sleep(delay);
        const fault = faults.pick(forcedFault);
        if (fault === 'drop') {
          reply.hijack();
          request.raw.socket.destroy();
          return;
        }
        if (fault === '429')
          return sendError(reply, new HttpError(429, 'Too Many Requests (injected fault)', { 'Retry-After': '1' }));
        if (fault === '500') return sendError(reply, new HttpError(500, 'Internal Server Error (injected fault)'));
        if (fault === '503')
          return sendError(reply, new HttpError(503, 'Service Unavailable (injected fault)', { 'Retry-After': '2' }));
        let rateHeaders: Record<string, string> = {};
        try {
          const validators = (compiled ??= requestValidatorsFor(operationId));
          const key = keyring.identify(request.headers.authorization);
          rateHeaders = limiter.check(op, key, request.ip);
          keyring.authorize(op, key);
          const query = { ...(request.query as Record<string, unknown>) };
          if (validators.query && !validators.query(query))
            throw new HttpError(422, toFastApiDetails('query', validators.query.errors));
          let body: unknown = request.body;
          if (validators.jsonBody) {
            if (op.method === 'get') {
              const raw = await readRawBody(request);
              try {
                body = raw.trim() === '' ? undefined : JSON.parse(raw);
              } catch (e) {
                throw new HttpError(422, [
                  { loc: ['body', 0], msg: `Expecting value: ${(e as Error).message}`, type: 'value_error.jsondecode' },
                ]);
              }
            }
            if (body === undefined || body === null) {
              if (validators.bodyRequired)
                throw new HttpError(422, [{ loc: ['body'], msg: 'field required', type: 'value_error.missing' }]);
            } else if (!validators.body!(body))
              throw new HttpError(422, toFastApiDetails('body', validators.body!.errors));
          }
          const params = { ...(request.params as Record<string, string>) };
          if ('*' in params) {
            params.doi = params['*']!;
            delete params['*'];
          }
          const result: ApiReply = await handler(
            {
              operationId,
              params,
              query,
              body,
              key,
              baseUrl: `${request.protocol}://${request.headers.host ?? `${options.host}:${options.port}`}`,
              raw: request,
            },
            ctx,
          );
          const headers = { ...rateHeaders, ...(result.headers ?? {}) };
          const status = result.status ?? 200;
          if (fault === 'malformed') {
            const text = JSON.stringify(result.body);
            return reply
              .code(status)
              .headers(headers)
              .type('application/json')
              .send(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
          }
          if (fault === 'slow') {
            const text = Buffer.from(JSON.stringify(result.body));
            reply.hijack();
            const res = reply.raw;
            res.writeHead(status, {
              ...headers,
              'content-type': 'application/json; charset=utf-8',
              'content-length': String(text.length),
            });
            const parts = 10;
            const step = Math.ceil(text.length / parts);
            for (let i = 0; i < text.length; i += step) {
              if (res.destroyed) return;
              res.write(text.subarray(i, i + step));
              await sleep(faults.slowMs / parts);
            }
            res.end();
            return;
          }
          return reply.code(status).headers(headers).send(result.body);
        } catch (error) {
          if (error instanceof HttpError) return sendError(reply, error, rateHeaders);
          throw error;
        }
      },
    });
  };
  for (const [operationId, op] of Object.entries(serviceOperations) as Array<[OperationId, ServiceOperation]>)
    register(operationId, op);

  app.get('/', async () => ({
    service: 'Citation and Literature Data Service (local implementation for Citewise)',
    papers: corpus.paperCount,
    seed: corpus.seed,
    operations: Object.keys(serviceOperations).length,
  }));

  // The pages that assistant references and reference-check reports link to.
  app.get('/reports/:slug', async (request, reply) => {
    const row = corpus.db
      .prepare('SELECT * FROM papers WHERE slug = ?')
      .get((request.params as { slug: string }).slug) as PaperRow | undefined;
    if (!row)
      return reply.code(404).type('text/html').send(page('Report not found', '<p>No paper has this report.</p>'));
    const p = corpus.paper(row);
    const t = p.tally!;
    return reply
      .type('text/html')
      .send(
        page(
          p.title,
          `<p>${escapeHtml(p.authors.map((a) => a.authorName).join(', '))}</p><p><i>${escapeHtml(p.journal)}</i> (${p.year}) · doi:${escapeHtml(p.doi)}</p><p>${t.supporting} supporting · ${t.contradicting} contrasting · ${t.mentioning} mentioning · ${t.citingPublications ?? 0} citing publications</p>${p.abstract ? `<p>${escapeHtml(p.abstract)}</p>` : ''}${p.editorialNotices.map((n) => `<p><b>${escapeHtml(n.status ?? '')}</b> ${escapeHtml(n.date ?? '')}</p>`).join('')}`,
        ),
      );
  });
  app.get('/reference-check/:id', async (request, reply) => {
    const job = state.referenceChecks.get((request.params as { id: string }).id);
    const refs = job?.result?.result.references ?? [];
    return reply
      .type('text/html')
      .send(
        page(
          'Reference check report',
          job
            ? `<p>${escapeHtml(job.filename)}: ${refs.length} references, ${refs.filter((r) => r.matchedDoi).length} matched.</p><ol>${refs.map((r) => `<li>${escapeHtml(r.text.slice(0, 300))}${r.matchedDoi ? ` → <a href="https://doi.org/${escapeHtml(r.matchedDoi)}">${escapeHtml(r.matchedDoi)}</a>` : ' (not matched)'}</li>`).join('')}</ol>`
            : '<p>No such reference check.</p>',
        ),
      );
  });

  await app.listen({ port: options.port, host: options.host });
  // Compile the request validators in the background, one operation per turn of the event loop.
  const pending = Object.keys(serviceOperations) as OperationId[];
  const warm = (): void => {
    const next = pending.shift();
    if (!next || !app.server.listening) return;
    requestValidatorsFor(next);
    setImmediate(warm);
  };
  setImmediate(warm);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  options.port = port;
  const running: RunningService = {
    url,
    port,
    keys: options.keys,
    corpusPath: path,
    timings: { corpusMs, generated, startMs: Date.now() - started },
    app,
    corpus,
    state,
    async close() {
      await app.close();
      corpus.close();
    },
  };
  return running;
}
