// JSON-RPC 2.0 as Better BibTeX's clients speak it: single calls and batches, positional or named
// params, the standard error codes. Two deliberate departures, both what Better BibTeX does and its
// clients rely on: a call without an id is answered (with id null) instead of being treated as a
// silent notification (rbbt, the Obsidian plugin and zotero.lua send no id and read the answer),
// and every answer is HTTP 200 with the error in the body.
// Bounds, since any program on the machine may call: a batch holds at most MAX_BATCH calls, its
// answer stops growing past MAX_BATCH_ANSWER_CHARS (the calls after are answered with an error, not
// run), and the calls left are not run once the client has gone.

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/** Thrown by a method to answer with a JSON-RPC error instead of a result. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** Calls in one batch at most (Better BibTeX's clients send one call at a time). */
export const MAX_BATCH = 100;
/** A batch's answer may grow to this many characters; the calls after it are not run. */
export const MAX_BATCH_ANSWER_CHARS = 32 * 1024 * 1024;

/** What a method knows of the request that called it. */
export interface RpcContext {
  /** Aborts when the client has closed the connection: work for it may stop. */
  signal?: AbortSignal;
  /** The call came as a POST with `Content-Type: application/json`: methods that change data may run. */
  mayWrite?: boolean;
  /** How large a batch's answer may grow (default MAX_BATCH_ANSWER_CHARS). */
  maxBatchAnswerChars?: number;
}

export interface RpcMethod {
  /** Parameter names in order, so named params map onto positions. */
  params: readonly string[];
  /** How many leading params must be given. */
  required?: number;
  /** The method changes the library or writes files: refused unless the context says mayWrite. */
  writes?: boolean;
  /**
   * The arguments, one per name in `params` (undefined where not given), then the call's RpcContext
   * as one argument more.
   */
  run(...args: unknown[]): Promise<unknown>;
}

export type RpcMethods = Readonly<Record<string, RpcMethod>>;

type Id = string | number | null;
export type RpcResponse =
  { jsonrpc: '2.0'; id: Id; result: unknown } | { jsonrpc: '2.0'; id: Id; error: { code: number; message: string } };

const failure = (id: Id, code: number, message: string): RpcResponse => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});

function idOf(call: Record<string, unknown>): Id {
  const id = call.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** Runs one call object; never throws. `report` hears unexpected failures (not RpcErrors). */
export async function handleCall(
  methods: RpcMethods,
  call: unknown,
  report?: (err: unknown) => void,
  context: RpcContext = {},
): Promise<RpcResponse> {
  if (typeof call !== 'object' || call === null || Array.isArray(call))
    return failure(null, INVALID_REQUEST, 'Invalid Request: expected an object with jsonrpc "2.0" and a method');
  const c = call as Record<string, unknown>;
  const id = idOf(c);
  if (c.jsonrpc !== '2.0') return failure(id, INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"');
  if (typeof c.method !== 'string') return failure(id, INVALID_REQUEST, 'Invalid Request: method must be a string');
  const method = Object.hasOwn(methods, c.method) ? methods[c.method] : undefined;
  if (!method) return failure(id, METHOD_NOT_FOUND, `Method not found: ${c.method}`);
  if (method.writes && context.mayWrite !== true)
    return failure(
      id,
      INVALID_REQUEST,
      `${c.method} changes your library or files, so it must come as a POST with Content-Type: application/json`,
    );

  let args: unknown[];
  const params = c.params;
  if (params === undefined || params === null) args = [];
  else if (Array.isArray(params)) {
    if (params.length > method.params.length)
      return failure(
        id,
        INVALID_PARAMS,
        `${c.method}: expected at most ${method.params.length} parameters (${method.params.join(', ')}), got ${params.length}`,
      );
    args = params;
  } else if (typeof params === 'object') {
    const named = params as Record<string, unknown>;
    const unknown = Object.keys(named).find((k) => !method.params.includes(k));
    if (unknown !== undefined)
      return failure(
        id,
        INVALID_PARAMS,
        `${c.method}: unexpected parameter "${unknown}" (it takes ${method.params.join(', ') || 'none'})`,
      );
    args = method.params.map((p) => named[p]);
  } else {
    return failure(id, INVALID_PARAMS, `${c.method}: params must be an array or an object`);
  }
  const required = method.required ?? 0;
  for (let i = 0; i < required; i++) {
    if (args[i] === undefined)
      return failure(id, INVALID_PARAMS, `${c.method}: the parameter "${method.params[i]}" is missing`);
  }
  const padded = method.params.map((_, i) => args[i]);
  try {
    return { jsonrpc: '2.0', id, result: await method.run(...padded, context) };
  } catch (err) {
    if (err instanceof RpcError) return failure(id, err.code, err.message);
    report?.(err);
    return failure(id, INTERNAL_ERROR, `${c.method} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A request body (already JSON-parsed): one call or a batch, answered as text. */
export async function handleRpc(
  methods: RpcMethods,
  body: unknown,
  report?: (err: unknown) => void,
  context: RpcContext = {},
): Promise<string> {
  if (!Array.isArray(body)) return JSON.stringify(await handleCall(methods, body, report, context));
  if (body.length === 0) return JSON.stringify(failure(null, INVALID_REQUEST, 'Invalid Request: an empty batch'));
  if (body.length > MAX_BATCH)
    return JSON.stringify(
      failure(
        null,
        INVALID_REQUEST,
        `Invalid Request: a batch may hold at most ${MAX_BATCH} calls, and this one has ${body.length}; send them in several requests`,
      ),
    );
  // In order, one at a time: a batch that adds a collection then scans into it must see the first.
  const out: string[] = [];
  const budget = context.maxBatchAnswerChars ?? MAX_BATCH_ANSWER_CHARS;
  let chars = 2;
  for (const call of body) {
    if (context.signal?.aborted) break;
    let text: string;
    if (chars > budget) {
      const c = call as { id?: unknown } | null;
      text = JSON.stringify(
        failure(
          idOf(typeof c === 'object' && c !== null ? (c as Record<string, unknown>) : {}),
          SERVER_BUSY_BATCH,
          `Not run: the batch's answer already has ${chars} characters (at most ${budget}); send this call in another request`,
        ),
      );
    } else text = JSON.stringify(await handleCall(methods, call, report, context));
    out.push(text);
    chars += text.length + 1;
  }
  return `[${out.join(',')}]`;
}

/** -32001: a call of a batch left unrun because the batch's answer is already as large as it may be. */
export const SERVER_BUSY_BATCH = -32001;

/** The text of a body; a parse error is answered like Better BibTeX does (HTTP 200, code -32700). */
export async function handleRpcText(
  methods: RpcMethods,
  text: string,
  report?: (err: unknown) => void,
  context: RpcContext = {},
): Promise<string> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return JSON.stringify(
      failure(null, PARSE_ERROR, `Parse error: ${err instanceof Error ? err.message : String(err)}`),
    );
  }
  return handleRpc(methods, body, report, context);
}
