// Listeners<T>: one kind of news, every listener told even when one throws.
import { describe, expect, it } from 'vitest';
import { Listeners } from '../../../shared/ipc/listeners';

describe('Listeners', () => {
  it('tells every listener, reports the one that throws, and stops telling a removed one', () => {
    const reported: unknown[] = [];
    const listeners = new Listeners<number>((err) => reported.push(err));
    const heard: string[] = [];
    const offFirst = listeners.add((n) => heard.push(`first ${n}`));
    listeners.add(() => {
      throw new Error('faulty');
    });
    listeners.add((n) => heard.push(`third ${n}`));
    listeners.emit(1);
    expect(heard).toEqual(['first 1', 'third 1']);
    expect(reported).toHaveLength(1);
    expect((reported[0] as Error).message).toBe('faulty');
    offFirst();
    listeners.emit(2);
    expect(heard).toEqual(['first 1', 'third 1', 'third 2']);
    expect(listeners.size).toBe(2);
  });

  it('a listener that removes itself while being told does not skip the next one', () => {
    const listeners = new Listeners<string>();
    const heard: string[] = [];
    const off = listeners.add(() => {
      heard.push('once');
      off();
    });
    listeners.add((v) => heard.push(v));
    listeners.emit('a');
    listeners.emit('b');
    expect(heard).toEqual(['once', 'a', 'b']);
    listeners.clear();
    listeners.emit('c');
    expect(heard).toEqual(['once', 'a', 'b']);
  });
});
