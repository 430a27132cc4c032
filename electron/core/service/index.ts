// The client of the Citation and Literature Data Service; see client.ts.
export {
  ServiceClient,
  EVIDENCE_DATASETS,
  nextPageParams,
  type ServiceClientOptions,
  type BulkOptions,
  type EvidenceDataset,
  type EvidenceQuery,
  type GraphPagingOptions,
} from './client';
export {
  ServiceTransport,
  parseRetryAfter,
  queryString,
  isIdempotent,
  DEFAULT_ANONYMOUS_LIMITS,
  type FetchLike,
  type CallOptions,
  type RequestSpec,
  type TransportOptions,
} from './transport';
export { ServiceError, SCOPE_DESCRIPTIONS, redact } from './errors';
export { systemClock, type Clock } from '../clock';
export { SlidingWindowLimiter, type RateWindow } from './rate-limiter';
export { chunk, type BulkResult, type BulkFailure } from './bulk';
export { KEY_PROBES, type KeyCheckResult, type ScopeAccess } from './key-check';
export { type TaskProgress, type TaskKind, type TaskWaitOptions } from './tasks';
export { type ServiceOperationFunctions, type OperationArgs } from './operations';
