// One EvidenceState per connection, so the pane's searches survive switching panes.
import type { CitewiseApi } from '../../../../shared/ipc';
import { EvidenceState } from './evidence.svelte';

const states = new WeakMap<CitewiseApi, EvidenceState>();

export function evidenceStateFor(api: CitewiseApi): EvidenceState {
  let s = states.get(api);
  if (!s) {
    s = new EvidenceState(api);
    states.set(api, s);
  }
  return s;
}
