// The editorial-notice notification (renderer/src/lib/state/notices.svelte.ts) in Node against a real
// in-process core and the local test service: retracted papers added to the library are announced
// once, in words that count them, read again by a window opened later, and gone once dismissed.
import { describe, expect, it } from 'vitest';
import { NoticesState } from '../../../renderer/src/lib/state/notices.svelte';
import { coreForTests, corpusDois, enrichmentSettled, onlineCore, until } from './helpers';

const env = coreForTests(() => onlineCore('notices'));

let adds = 0;
async function add(dois: string[]): Promise<void> {
  const r = await env.t.api.invoke('library.addDois', { dois });
  if (!r.ok) throw new Error(r.error.message);
  await enrichmentSettled(env.t.api, ++adds);
}

describe('NoticesState against the test service', () => {
  it('announces one retracted item, then two, and a window opened later reads them until dismissed', async () => {
    const [first, second] = corpusDois(env.t.svc, 2, 'retracted = 1');
    const state = new NoticesState(env.t.api);
    const stop = state.start();
    try {
      await add([corpusDois(env.t.svc, 1, 'retracted = 0 AND notice_flags = 0')[0]!]);
      expect(state.changes).toEqual([]); // a clean paper is no news

      await add([first!]);
      await until(() => state.itemCount === 1, 'the first notice');
      expect(state.message).toBe('1 item in your library has been retracted');

      await add([second!]);
      await until(() => state.itemCount === 2, 'the second notice');
      expect(state.message).toBe('2 items in your library have been retracted');

      const later = new NoticesState(env.t.api);
      const stopLater = later.start();
      await until(() => later.itemCount === 2, 'the unseen changes read at start');
      stopLater();

      await state.dismiss();
      expect(state.changes).toEqual([]);
      expect(state.error).toBeNull();
      const afterwards = new NoticesState(env.t.api);
      const stopAfterwards = afterwards.start();
      const unseen = await env.t.api.invoke('library.watch.changes', { unseenOnly: true });
      expect(unseen.ok && unseen.value).toEqual([]);
      expect(afterwards.changes).toEqual([]);
      stopAfterwards();
    } finally {
      stop();
    }
  });
});
