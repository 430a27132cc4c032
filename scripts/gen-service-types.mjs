#!/usr/bin/env node
// Generates shared/service/schema.gen.ts from the service contract (shared/service/openapi.yaml):
// the openapi-typescript types, then a small table of every operation (method, path, scope, auth)
// so the client and the local service take routes and scopes from the contract, not from copies.
//
//   node scripts/gen-service-types.mjs           write the file
//   node scripts/gen-service-types.mjs --check   exit 1 if the file is missing or stale
//
// generateServiceTypes() is exported so tests can compare in memory.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import YAML from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const contractPath = path.join(root, 'shared/service/openapi.yaml');
export const outputPath = path.join(root, 'shared/service/schema.gen.ts');

const HEADER = `// generated — do not edit, run npm run gen:service
// Source: shared/service/openapi.yaml (openapi-typescript, then the operation table at the end).
`;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** @param {unknown} value */
const lit = (value) => JSON.stringify(value).replaceAll('"', "'");

/**
 * The operation table: one entry per operationId, in document order.
 * @param {any} doc parsed OpenAPI document
 */
function operationTable(doc) {
  const globalSecurity = doc.security ?? [];
  const lines = [];
  for (const [route, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${route} has no operationId`);
      const scope = op['x-citewise-scope'];
      if (typeof scope !== 'string') throw new Error(`${op.operationId} has no x-citewise-scope`);
      const security = op.security ?? globalSecurity;
      const optional = security.length === 0 || security.some((req) => Object.keys(req).length === 0);
      const rateLimit = op['x-citewise-rate-limit'] === 'uncapped' ? 'uncapped' : 'capped';
      const tag = op.tags?.[0] ?? '';
      lines.push(
        `  ${op.operationId}: { method: ${lit(method)}, path: ${lit(route)}, scope: ${lit(scope)}, auth: ${lit(optional ? 'optional' : 'required')}, rateLimit: ${lit(rateLimit)}, tag: ${lit(tag)} },`,
      );
    }
  }
  return `
/** Every operation of the contract: HTTP method, path template, x-citewise-scope, whether a token is required, rate limit. */
export const serviceOperations = {
${lines.join('\n')}
} as const;
`;
}

/** @returns {Promise<string>} the full text of schema.gen.ts */
export async function generateServiceTypes() {
  const text = await readFile(contractPath, 'utf8');
  const doc = YAML.parse(text);
  const ast = await openapiTS(doc, { silent: true });
  return `${HEADER}\n${astToString(ast)}${operationTable(doc)}`;
}

async function main() {
  const check = process.argv.includes('--check');
  const generated = await generateServiceTypes();
  if (check) {
    const current = await readFile(outputPath, 'utf8').catch(() => null);
    if (current !== generated) {
      console.error(
        current === null
          ? 'shared/service/schema.gen.ts is missing: run npm run gen:service'
          : 'shared/service/schema.gen.ts is stale (it does not match shared/service/openapi.yaml): run npm run gen:service',
      );
      process.exit(1);
    }
    console.log('shared/service/schema.gen.ts is in sync with shared/service/openapi.yaml');
    return;
  }
  await writeFile(outputPath, generated);
  console.log(`wrote ${path.relative(root, outputPath)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
