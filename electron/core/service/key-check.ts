// "Which access does this key grant?" The service publishes no endpoint for that, so Citewise asks
// one cheap question per scope and reads the status: 401 means the key is not accepted at all, 403
// that it lacks the scope, anything else (200, 404, 422) that the scope let the request through.
// The probes name identifiers that do not exist, so they read nothing and change nothing:
//   public            GET /tallies/10.0000/citewise-key-check           (uncapped; also checks the key)
//   citations         GET /api_partner/citations/cited_by/10.0000/citewise-key-check
//   collections       GET /api_partner/collections/citewise-key-check
//   assistant         GET /api_partner/assistant/tasks/citewise-key-check
//   reference-check   GET /reference_check/tasks/citewise-key-check
//   evidence-*        GET /api_partner/evidence/<dataset>/schema         (one per dataset)
// Eleven small GETs in all, run together, only when the researcher asks.
import type { ErrorCode } from '../../../shared/ipc';
import type { KeyCheckResult, ScopeAccess } from '../../../shared/model/service';
import { SERVICE_SCOPES, type OperationId, type ServiceScope } from '../../../shared/service';
import { SCOPE_DESCRIPTIONS, ServiceError } from './errors';
import { toRequestSpec } from './operations';
import type { ServiceTransport } from './transport';

const PROBE_DOI = '10.0000/citewise-key-check';
const PROBE_ID = 'citewise-key-check';

export const KEY_PROBES: Record<ServiceScope, { operationId: OperationId; args: Record<string, unknown> }> = {
  public: { operationId: 'getTally', args: { path: { doi: PROBE_DOI } } },
  citations: { operationId: 'getCitedByCitations', args: { path: { doi: PROBE_DOI } } },
  collections: { operationId: 'getCollection', args: { path: { collection_slug: PROBE_ID } } },
  assistant: { operationId: 'getAssistantTask', args: { path: { task_id: PROBE_ID } } },
  'reference-check': { operationId: 'getReferenceCheckTask', args: { path: { task_id: PROBE_ID } } },
  'evidence-patents': { operationId: 'getPatentsSchema', args: {} },
  'evidence-clinical-trials': { operationId: 'getClinicalTrialsSchema', args: {} },
  'evidence-grants': { operationId: 'getGrantsSchema', args: {} },
  'evidence-device510k': { operationId: 'getDevice510kSummariesSchema', args: {} },
  'evidence-faers': { operationId: 'getFaersSchema', args: {} },
  'evidence-maude': { operationId: 'getMaudeSchema', args: {} },
};

export type { KeyCheckResult, ScopeAccess };

const GRANTING_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['NOT_FOUND', 'VALIDATION']);

async function probe(
  transport: ServiceTransport,
  scope: ServiceScope,
  key: string,
  signal: AbortSignal | undefined,
): Promise<ScopeAccess> {
  const { operationId, args } = KEY_PROBES[scope];
  const label = SCOPE_DESCRIPTIONS[scope];
  try {
    await transport.request(toRequestSpec(operationId, args), { key, signal, deadlineMs: 20_000 });
    return { scope, label, granted: true };
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    if (GRANTING_CODES.has(err.code)) return { scope, label, granted: true };
    if (err.code === 'FORBIDDEN') return { scope, label, granted: false };
    if (err.code === 'UNAUTHORIZED') return { scope, label, granted: false, note: 'key not accepted' };
    if (err.code === 'CANCELLED') throw err;
    return { scope, label, granted: null, note: err.message };
  }
}

export async function checkKey(
  transport: ServiceTransport,
  key: string,
  signal?: AbortSignal,
): Promise<KeyCheckResult> {
  const first = await probe(transport, 'public', key, signal);
  if (first.note === 'key not accepted') {
    return {
      valid: false,
      summary: 'The service does not accept this API key: it may be mistyped, revoked or expired.',
      access: SERVICE_SCOPES.map((scope) => ({ scope, label: SCOPE_DESCRIPTIONS[scope], granted: false })),
    };
  }
  const rest = await Promise.all(
    SERVICE_SCOPES.filter((s) => s !== 'public').map((s) => probe(transport, s, key, signal)),
  );
  const access = [first, ...rest];
  const unknown = access.filter((a) => a.granted === null).length;
  const granted = access.filter((a) => a.granted === true).map((a) => a.label);
  const summary =
    first.granted === null
      ? `The check could not reach the service: ${first.note ?? 'unknown failure'}`
      : `The key is accepted and grants ${granted.length} of ${access.length} kinds of access${unknown ? `; ${unknown} could not be checked` : ''}.`;
  return { valid: first.granted !== null, summary, access };
}
