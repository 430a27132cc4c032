// What the service remembers between requests: collections, assistant tasks and sessions,
// reference checks, assistant usage. In memory, per running service.
import type { Collection } from '../../shared/service/index';
import type { AssistantTaskState, SessionState } from './routes/assistant';
import type { ReferenceCheckState } from './routes/refcheck';

export class ServiceState {
  readonly collections = new Map<string, Collection>();
  collectionSeq = 0;
  readonly assistantTasks = new Map<string, AssistantTaskState>();
  readonly sessions = new Map<number, SessionState>();
  sessionSeq = 1000;
  readonly referenceChecks = new Map<string, ReferenceCheckState>();
  /** Assistant requests per token. */
  readonly usage = new Map<string, number>();
}
