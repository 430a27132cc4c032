// What route handlers see and return, independent of Fastify.
import type { FastifyRequest } from 'fastify';
import type { OperationId } from '../../shared/service/index';
import type { Corpus } from './store';
import type { ServiceState } from './state';
import type { ServiceOptions } from './options';
import type { ApiKey } from './auth';
import type { FaultInjector } from './faults';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : `HTTP ${status}`);
  }
}

export const notFound = (what = 'Not found'): HttpError => new HttpError(404, what);

/** A FastAPI-style 422 for one field. */
export function unprocessable(loc: Array<string | number>, msg: string, type: string): HttpError {
  return new HttpError(422, [{ loc, msg, type }]);
}

export interface ApiRequest {
  operationId: OperationId;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  key: ApiKey | undefined;
  /** e.g. http://127.0.0.1:8787, from the Host header. */
  baseUrl: string;
  raw: FastifyRequest;
}

export interface ApiReply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface Context {
  corpus: Corpus;
  state: ServiceState;
  options: ServiceOptions;
  faults: FaultInjector;
}

export type Handler = (req: ApiRequest, ctx: Context) => ApiReply | Promise<ApiReply>;

export const ok = (body: unknown, status = 200): ApiReply => ({ status, body });

export function bool(value: unknown): boolean {
  return value === true || value === 'true';
}
