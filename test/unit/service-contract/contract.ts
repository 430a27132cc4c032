// Test-side access to the service contract: load openapi.yaml, list its operations, walk its
// `x-citewise-guess` markers, and compile its component schemas with Ajv (JSON Schema 2020-12).
// Only for the contract tests; the local service's tests keep their own validator under test/service.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const contractFile = `${repoRoot}shared/service/openapi.yaml`;
export const guessesTableFile = `${repoRoot}shared/service/GUESSES.md`;
export const generatedFile = `${repoRoot}shared/service/schema.gen.ts`;
export const generatorFile = `${repoRoot}scripts/gen-service-types.mjs`;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export function loadContract(): JsonObject {
  const doc: unknown = YAML.parse(readFileSync(contractFile, 'utf8'));
  if (!isObject(doc)) throw new Error('openapi.yaml is not a mapping');
  return doc;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(node: Json | undefined, key: string): Json | undefined {
  return isObject(node) ? node[key] : undefined;
}

/** Resolves a local JSON pointer such as `#/components/schemas/Paper`; undefined when it does not exist. */
export function resolvePointer(doc: JsonObject, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = Array.isArray(node) ? node[Number(key)] : child(node, key);
    if (node === undefined) return undefined;
  }
  return node;
}

/** Follows `$ref` chains to the object they name. */
export function deref(doc: JsonObject, node: Json | undefined): Json | undefined {
  let current = node;
  for (let i = 0; i < 20 && isObject(current) && typeof current.$ref === 'string'; i++) {
    current = resolvePointer(doc, current.$ref);
  }
  return current;
}

export interface Operation {
  operationId: string;
  method: (typeof HTTP_METHODS)[number];
  path: string;
  op: JsonObject;
}

export function listOperations(doc: JsonObject): Operation[] {
  const result: Operation[] = [];
  const paths = doc.paths;
  if (!isObject(paths)) return result;
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      result.push({ operationId: String(op.operationId ?? ''), method, path, op });
    }
  }
  return result;
}

/** Every `$ref` string in the document, with where it sits. */
export function collectRefs(node: Json, pointer = '#'): Array<{ ref: string; at: string }> {
  const refs: Array<{ ref: string; at: string }> = [];
  const visit = (value: Json, at: string): void => {
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, `${at}/${i}`));
    else if (isObject(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$ref' && typeof inner === 'string') refs.push({ ref: inner, at });
        else visit(inner, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
      }
    }
  };
  visit(node, pointer);
  return refs;
}

export interface GuessMarker {
  ids: string[];
  /** JSON pointer segments from the document root to the marked node. */
  at: string[];
  node: JsonObject;
}

/** Every node carrying `x-citewise-guess` (a string or a list of strings). */
export function collectGuessMarkers(doc: JsonObject): GuessMarker[] {
  const markers: GuessMarker[] = [];
  const visit = (value: Json, at: string[]): void => {
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...at, String(i)]));
    else if (isObject(value)) {
      const mark = value['x-citewise-guess'];
      if (mark !== undefined) {
        const ids = Array.isArray(mark) ? mark.map(String) : [String(mark)];
        markers.push({ ids, at, node: value });
      }
      for (const [key, inner] of Object.entries(value)) visit(inner, [...at, key]);
    }
  };
  visit(doc, []);
  return markers;
}

/** The ids in the first column of the table in GUESSES.md (the first table only). */
export function guessTableIds(markdown: string): string[] {
  const ids: string[] = [];
  let inTable = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('|')) {
      inTable = true;
      const first = line.split('|')[1]?.trim() ?? '';
      if (first === 'id' || /^-+$/.test(first)) continue;
      ids.push(first);
    } else if (inTable) break;
  }
  return ids;
}

const SCHEMA_BASE = 'https://citewise.invalid/service-contract.json';

function rewriteRefs(node: Json): Json {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string'
        ? value.replace('#/components/schemas/', '#/$defs/')
        : rewriteRefs(value);
  }
  return out;
}

export interface SchemaValidator {
  names: string[];
  /** The compiled validator of one component schema. */
  get(name: string): ValidateFunction;
  /** Compiles an inline schema from the document (its refs to component schemas resolve). */
  compileInline(schema: Json): ValidateFunction;
}

/**
 * Ajv 2020 in strict mode (union types allowed: the contract uses `type: [integer, 'null']`) over `components.schemas`, as one schema with `$defs` so that refs
 * resolve. OpenAPI's `format: binary` is accepted, and the `x-citewise-guess` annotation ignored.
 */
export function createSchemaValidator(doc: JsonObject): SchemaValidator {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addKeyword({ keyword: 'x-citewise-guess', schemaType: ['string', 'array'] });
  const schemas = deref(doc, child(child(doc, 'components'), 'schemas'));
  if (!isObject(schemas)) throw new Error('no components.schemas');
  ajv.addSchema({ $id: SCHEMA_BASE, $defs: rewriteRefs(schemas) } as object);
  let inline = 0;
  return {
    names: Object.keys(schemas),
    get(name) {
      const validate = ajv.getSchema(`${SCHEMA_BASE}#/$defs/${name}`);
      if (!validate) throw new Error(`no schema ${name}`);
      return validate;
    },
    compileInline(schema) {
      inline += 1;
      const rewritten = JSON.parse(
        JSON.stringify(rewriteRefs(schema)).replaceAll('"#/$defs/', `"${SCHEMA_BASE}#/$defs/`),
      ) as object;
      return ajv.compile({ $id: `${SCHEMA_BASE}/inline/${inline}`, ...rewritten });
    },
  };
}
