// One typed function per operation of the contract, made from its operation table rather than
// written 41 times: names, paths, methods and types all come from shared/service. DOIs in paths,
// DOI lists and source-DOI filters are normalised here, once, on their way out.
import { InvalidDoiError, normalizeDoi } from '../../../shared/model/doi';
import {
  GUESSES,
  serviceOperations,
  type OperationId,
  type PathParams,
  type QueryParams,
  type RequestBody,
  type SuccessBody,
} from '../../../shared/service';
import { CoreError } from '../errors';
import type { CallOptions, QueryValue, RequestSpec, ServiceTransport } from './transport';

/** `Then` when the contract gives the operation this part, nothing when it is `never`. */
type IfPresent<T, Then> = [T] extends [never] ? object : Then;
// Operations without a body give `unknown` here, multipart-only ones `never`: neither takes `body`.
type JsonBodyArg<Op extends OperationId> =
  unknown extends RequestBody<Op> ? object : IfPresent<RequestBody<Op>, { body: RequestBody<Op> }>;

/** What a call takes: `path`, `query` and `body` exactly where the contract has them. */
export type OperationArgs<Op extends OperationId> = IfPresent<PathParams<Op>, { path: PathParams<Op> }> &
  IfPresent<QueryParams<Op>, { query?: QueryParams<Op> }> &
  JsonBodyArg<Op> &
  (Op extends 'submitReferenceCheck' ? { file?: { name: string; data: Blob } } : object);

export type OperationFunction<Op extends OperationId> = (
  args: OperationArgs<Op>,
  options?: CallOptions,
) => Promise<SuccessBody<Op>>;

export type ServiceOperationFunctions = { readonly [Op in OperationId]: OperationFunction<Op> };

const DOI_LIST_BODIES: ReadonlySet<OperationId> = new Set<OperationId>([
  'getPapers',
  'getTallies',
  'getTalliesViaGet',
  'getAggregateTally',
]);
const DOI_LIST_QUERIES = new Set<string>([GUESSES.citingSourceDoiParam, 'source_doi[]']);

/** Normalises, or fails with INVALID_INPUT naming the DOI and what is wrong with it. */
export function doiOrInvalid(input: string): string {
  try {
    return normalizeDoi(input);
  } catch (err) {
    if (err instanceof InvalidDoiError) throw new CoreError('INVALID_INPUT', err.message, { input: err.input });
    throw err;
  }
}

export function toRequestSpec(operationId: OperationId, args: Record<string, unknown>): RequestSpec {
  const spec: RequestSpec = { operationId };
  const path = args.path as Record<string, string | number> | undefined;
  if (path) spec.path = 'doi' in path ? { ...path, doi: doiOrInvalid(String(path.doi)) } : path;
  const query = args.query as Record<string, QueryValue> | undefined;
  if (query) {
    const out: Record<string, QueryValue> = {};
    for (const [name, value] of Object.entries(query)) {
      out[name] = DOI_LIST_QUERIES.has(name) && Array.isArray(value) ? (value as string[]).map(doiOrInvalid) : value;
    }
    spec.query = out;
  }
  if ('body' in args)
    spec.body = DOI_LIST_BODIES.has(operationId) ? (args.body as string[]).map(doiOrInvalid) : args.body;
  const file = args.file as { name: string; data: Blob } | undefined;
  if (file) {
    const form = new FormData();
    form.append('file', file.data, file.name);
    spec.form = form;
  }
  return spec;
}

export function createOperationFunctions(transport: ServiceTransport): ServiceOperationFunctions {
  const fns: Record<string, (args: Record<string, unknown>, options?: CallOptions) => Promise<unknown>> = {};
  for (const id of Object.keys(serviceOperations) as OperationId[]) {
    fns[id] = (args, options) => transport.request(toRequestSpec(id, args ?? {}), options);
  }
  return Object.freeze(fns) as unknown as ServiceOperationFunctions;
}
