// The Assistant pane's state, one per window. The pane is unmounted when another pane is shown; the
// conversation on screen, the question being written and a running reference check must survive that,
// and a question or check that finishes meanwhile must still be heard. So the state subscribes once,
// for the window's lifetime (the api lives exactly as long), and the pane only reads it.
import type { CitewiseApi } from '../../../../shared/ipc';
import { AssistantState } from './assistant.svelte';
import { ManuscriptCheckState } from './manuscript-check.svelte';
import { ReferenceCheckState } from './reference-check.svelte';

export interface AssistantPaneState {
  assistant: AssistantState;
  check: ReferenceCheckState;
  manuscript: ManuscriptCheckState;
  /** Unsubscribes both (for tests and a window's teardown). */
  dispose(): void;
}

const byApi = new WeakMap<CitewiseApi, AssistantPaneState>();

export function assistantPaneStateFor(api: CitewiseApi, defaultStyle: string | undefined): AssistantPaneState {
  let state = byApi.get(api);
  if (!state) {
    let assistant!: AssistantState;
    let check!: ReferenceCheckState;
    let manuscript!: ManuscriptCheckState;
    // Created under its own root, not the pane that first asks: its effects must outlive that pane.
    $effect.root(() => {
      assistant = new AssistantState(api);
      check = new ReferenceCheckState(api);
      manuscript = new ManuscriptCheckState(api);
    });
    const stops = [assistant.start(defaultStyle), check.start()];
    state = {
      assistant,
      check,
      manuscript,
      dispose() {
        for (const stop of stops.splice(0)) stop();
        byApi.delete(api);
      },
    };
    byApi.set(api, state);
  }
  return state;
}
