// JSON-RPC 2.0 as Better BibTeX's clients speak it: single calls and batches, positional or named
// params, the standard error codes. Two deliberate departures, both what Better BibTeX does and its
// clients rely on: a call without an id is answered (with id null) instead of being treated as a
// silent notification (rbbt, the Obsidian plugin and zotero.lua send no id and read the answer),
// and every answer is HTTP 200 with the error in the body.

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

export interface RpcMethod {
  /** Parameter names in order, so named params map onto positions. */
  params: readonly string[];
  /** How many leading params must be given. */
  required?: number;
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
): Promise<RpcResponse> {
  if (typeof call !== 'object' || call === null || Array.isArray(call))
    return failure(null, INVALID_REQUEST, 'Invalid Request: expected an object with jsonrpc "2.0" and a method');
  const c = call as Record<string, unknown>;
  const id = idOf(c);
  if (c.jsonrpc !== '2.0') return failure(id, INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"');
  if (typeof c.method !== 'string') return failure(id, INVALID_REQUEST, 'Invalid Request: method must be a string');
  const method = Object.hasOwn(methods, c.method) ? methods[c.method] : undefined;
  if (!method) return failure(id, METHOD_NOT_FOUND, `Method not found: ${c.method}`);

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
  try {
    return { jsonrpc: '2.0', id, result: await method.run(...args) };
  } catch (err) {
    if (err instanceof RpcError) return failure(id, err.code, err.message);
    report?.(err);
    return failure(id, INTERNAL_ERROR, `${c.method} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A request body (already JSON-parsed): one call or a batch. */
export async function handleRpc(
  methods: RpcMethods,
  body: unknown,
  report?: (err: unknown) => void,
): Promise<RpcResponse | RpcResponse[]> {
  if (Array.isArray(body)) {
    if (body.length === 0) return failure(null, INVALID_REQUEST, 'Invalid Request: an empty batch');
    // In order, one at a time: a batch that adds a collection then scans into it must see the first.
    const out: RpcResponse[] = [];
    for (const call of body) out.push(await handleCall(methods, call, report));
    return out;
  }
  return handleCall(methods, body, report);
}

/** The text of a body; a parse error is answered like Better BibTeX does (HTTP 200, code -32700). */
export async function handleRpcText(
  methods: RpcMethods,
  text: string,
  report?: (err: unknown) => void,
): Promise<string> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return JSON.stringify(
      failure(null, PARSE_ERROR, `Parse error: ${err instanceof Error ? err.message : String(err)}`),
    );
  }
  return JSON.stringify(await handleRpc(methods, body, report));
}
