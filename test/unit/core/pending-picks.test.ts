// The app's list of editors waiting for a citation (browser mode's banner): what arrives is listed
// and announced, an answer or a cancel reaches the waiting request once, and a request that ended
// elsewhere (the editor hung up, the picker page answered) leaves the list.
import { describe, expect, it } from 'vitest';
import { PendingPicks } from '../../../electron/core/editors/pending-picks';
import { CoreError } from '../../../electron/core/errors';

function setup() {
  const announced: { id: string }[][] = [];
  const picks = new PendingPicks(
    { emit: (_name: string, list: unknown) => announced.push(list as { id: string }[]) } as never,
    () => new Date('2026-11-29T08:00:00Z'),
  );
  const answers: unknown[] = [];
  const waiting = (id: string) =>
    picks.add({ id, answer: (p) => answers.push([id, p]), cancel: () => answers.push([id, null]) });
  return { picks, announced, answers, waiting };
}

describe('PendingPicks', () => {
  it('lists and announces each waiting request, oldest first', () => {
    const { picks, announced, waiting } = setup();
    waiting('a');
    waiting('b');
    expect(picks.list()).toEqual([
      { id: 'a', since: '2026-11-29T08:00:00.000Z' },
      { id: 'b', since: '2026-11-29T08:00:00.000Z' },
    ]);
    expect(announced.map((l) => l.map((p) => p.id))).toEqual([['a'], ['a', 'b']]);
  });

  it('answers with the keys in order, once; a second answer is NOT_FOUND', () => {
    const { picks, answers, waiting, announced } = setup();
    waiting('a');
    picks.answer('a', ['adams2001', 'brigge2002']);
    expect(answers).toEqual([['a', [{ citationKey: 'adams2001' }, { citationKey: 'brigge2002' }]]]);
    expect(picks.list()).toEqual([]);
    expect(announced.at(-1)).toEqual([]);
    expect(() => picks.answer('a', ['x'])).toThrow(CoreError);
    expect(() => picks.cancel('a')).toThrow(/no longer waiting/);
    expect(answers).toHaveLength(1);
  });

  it('cancel answers the request with nothing', () => {
    const { picks, answers, waiting } = setup();
    waiting('a');
    picks.cancel('a');
    expect(answers).toEqual([['a', null]]);
  });

  it('a request that ended elsewhere leaves the list, and its late removal touches no newer one', () => {
    const { picks, waiting, announced } = setup();
    const gone = waiting('a');
    gone();
    expect(picks.list()).toEqual([]);
    expect(announced.at(-1)).toEqual([]);
    const again = waiting('a');
    gone();
    expect(picks.list().map((p) => p.id)).toEqual(['a']);
    again();
    expect(picks.list()).toEqual([]);
  });
});
