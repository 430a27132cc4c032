// The contract (shared/service/openapi.yaml), loaded once: request validation with FastAPI-style 422
// details, and response validators that the contract tests run over every answer.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OperationId } from '../../shared/service/index';

// ajv-formats is CommonJS; its default export arrives wrapped under tsx/Node ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;

export const CONTRACT_PATH = fileURLToPath(new URL('../../shared/service/openapi.yaml', import.meta.url));

type Json = Record<string, unknown>;
interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
  $ref?: string;
}
interface OpenApiOperation {
  operationId: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses: Record<string, Json>;
}

let cached: { doc: Json; ops: Map<string, OpenApiOperation> } | undefined;

export function contractDocument(): { doc: Json; ops: Map<string, OpenApiOperation> } {
  if (cached) return cached;
  const doc = parse(readFileSync(CONTRACT_PATH, 'utf8')) as Json;
  const ops = new Map<string, OpenApiOperation>();
  for (const item of Object.values(doc.paths as Record<string, Record<string, OpenApiOperation>>)) {
    for (const [method, op] of Object.entries(item)) {
      if (['get', 'post', 'put', 'delete', 'patch'].includes(method) && op.operationId) ops.set(op.operationId, op);
    }
  }
  cached = { doc, ops };
  return cached;
}

/** Rewrites local `#/components/...` refs so a fragment can be compiled on its own against the document. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema && typeof schema === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(schema as Json)) {
      out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `contract${v}` : rebase(v);
    }
    return out;
  }
  return schema;
}

function resolveRef<T>(doc: Json, value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value && typeof value.$ref === 'string') {
    let node: unknown = doc;
    for (const part of value.$ref.replace(/^#\//, '').split('/'))
      node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    return resolveRef(doc, node as T);
  }
  return value as T;
}

function makeAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: coerce,
    validateFormats: true,
  });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(
    { $id: 'contract', components: rebase((contractDocument().doc as Json).components) } as Json,
    'contract',
  );
  return ajv;
}

// ---- Requests ------------------------------------------------------------------------------------

export interface FastApiDetail {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

interface RequestValidators {
  query?: ValidateFunction;
  body?: ValidateFunction;
  bodyRequired: boolean;
  jsonBody: boolean;
}

let requestAjv: Ajv2020 | undefined;
const requestValidators = new Map<string, RequestValidators>();

export function requestValidatorsFor(operationId: OperationId): RequestValidators {
  const hit = requestValidators.get(operationId);
  if (hit) return hit;
  const { doc, ops } = contractDocument();
  requestAjv ??= makeAjv(true);
  const op = ops.get(operationId);
  if (!op) throw new Error(`operation ${operationId} is not in the contract`);
  const params = (op.parameters ?? []).map((p) => resolveRef<OpenApiParameter>(doc, p));
  const queryParams = params.filter((p) => p.in === 'query');
  const out: RequestValidators = { bodyRequired: false, jsonBody: false };
  if (queryParams.length > 0) {
    const properties: Json = {};
    for (const p of queryParams) properties[p.name] = rebase(p.schema ?? {});
    out.query = requestAjv.compile({
      type: 'object',
      properties,
      required: queryParams.filter((p) => p.required).map((p) => p.name),
    });
  }
  const body = op.requestBody
    ? resolveRef<NonNullable<OpenApiOperation['requestBody']>>(doc, op.requestBody)
    : undefined;
  const json = body?.content?.['application/json']?.schema;
  if (json) {
    out.body = requestAjv.compile(rebase(json) as Json);
    out.bodyRequired = body?.required ?? false;
    out.jsonBody = true;
  }
  requestValidators.set(operationId, out);
  return out;
}

const TYPE_MESSAGES: Record<string, [string, string]> = {
  integer: ['value is not a valid integer', 'type_error.integer'],
  number: ['value is not a valid float', 'type_error.float'],
  boolean: ['value could not be parsed to a boolean', 'type_error.bool'],
  string: ['str type expected', 'type_error.str'],
  array: ['value is not a valid list', 'type_error.list'],
  object: ['value is not a valid dict', 'type_error.dict'],
  null: ['none is not an allowed value', 'type_error.none.not_allowed'],
};

/** Ajv errors as the pydantic (FastAPI) error list a real 422 carries. */
export function toFastApiDetails(
  where: 'query' | 'body' | 'path',
  errors: readonly ErrorObject[] | null | undefined,
): FastApiDetail[] {
  const details: FastApiDetail[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    const loc: Array<string | number> = [
      where,
      ...e.instancePath
        .split('/')
        .slice(1)
        .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~'))),
    ];
    const p = e.params as Record<string, unknown>;
    let msg: string;
    let type: string;
    switch (e.keyword) {
      case 'required':
        loc.push(String(p.missingProperty));
        [msg, type] = ['field required', 'value_error.missing'];
        break;
      case 'additionalProperties':
        loc.push(String(p.additionalProperty));
        [msg, type] = ['extra fields not permitted', 'value_error.extra'];
        break;
      case 'maxItems':
        [msg, type] = [`ensure this value has at most ${String(p.limit)} items`, 'value_error.list.max_items'];
        break;
      case 'minItems':
        [msg, type] = [`ensure this value has at least ${String(p.limit)} items`, 'value_error.list.min_items'];
        break;
      case 'maximum':
        [msg, type] = [`ensure this value is less than or equal to ${String(p.limit)}`, 'value_error.number.not_le'];
        break;
      case 'minimum':
        [msg, type] = [`ensure this value is greater than or equal to ${String(p.limit)}`, 'value_error.number.not_ge'];
        break;
      case 'minLength':
        [msg, type] = [
          `ensure this value has at least ${String(p.limit)} characters`,
          'value_error.any_str.min_length',
        ];
        break;
      case 'maxLength':
        [msg, type] = [`ensure this value has at most ${String(p.limit)} characters`, 'value_error.any_str.max_length'];
        break;
      case 'enum':
        [msg, type] = [
          `value is not a valid enumeration member; permitted: ${(p.allowedValues as unknown[]).map((v) => `'${String(v)}'`).join(', ')}`,
          'type_error.enum',
        ];
        break;
      case 'pattern':
        [msg, type] = [`string does not match regex "${String(p.pattern)}"`, 'value_error.str.regex'];
        break;
      case 'format':
        [msg, type] =
          p.format === 'uri'
            ? ['invalid or missing URL scheme', 'value_error.url.scheme']
            : [`invalid ${String(p.format)} format`, 'value_error.format'];
        break;
      case 'type': {
        const t = String(Array.isArray(p.type) ? p.type.find((x) => x !== 'null') : p.type);
        [msg, type] = TYPE_MESSAGES[t] ?? [`value is not a valid ${t}`, `type_error.${t}`];
        break;
      }
      default:
        [msg, type] = [e.message ?? 'invalid value', `value_error.${e.keyword}`];
    }
    const key = `${loc.join('.')}|${type}`;
    if (!seen.has(key)) {
      seen.add(key);
      details.push({ loc, msg, type });
    }
  }
  return details;
}

// ---- Responses -----------------------------------------------------------------------------------

let responseAjv: Ajv2020 | undefined;
const responseValidators = new Map<string, ValidateFunction | null>();

/**
 * The validator of an operation's documented answer for a status, or null when the contract
 * documents no JSON body for it. Throws when the status is not documented at all.
 */
export function responseValidator(operationId: OperationId, status: number): ValidateFunction | null {
  const key = `${operationId} ${status}`;
  if (responseValidators.has(key)) return responseValidators.get(key)!;
  const { doc, ops } = contractDocument();
  responseAjv ??= makeAjv(false);
  const op = ops.get(operationId);
  if (!op) throw new Error(`operation ${operationId} is not in the contract`);
  const raw = op.responses[String(status)];
  if (!raw) throw new Error(`${operationId} does not document status ${status}`);
  const response = resolveRef<{ content?: Record<string, { schema?: Json }> }>(doc, raw);
  const schema = response.content?.['application/json']?.schema;
  const fn = schema ? responseAjv.compile(rebase(schema) as Json) : null;
  responseValidators.set(key, fn);
  return fn;
}
