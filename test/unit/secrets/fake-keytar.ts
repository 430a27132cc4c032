import { inspect } from 'node:util';
import { expect } from 'vitest';
import type { KeytarLike } from '../../../electron/core/secrets';

type Op = 'getPassword' | 'setPassword' | 'deletePassword';

/**
 * An in-memory keytar whose calls can be made to fail or hang, one operation at a time, to drive the
 * store through each way a real keychain lets it down. Its failures quote the password on purpose:
 * the store must not pass that text on.
 */
export class FakeKeytar implements KeytarLike {
  readonly items = new Map<string, string>();
  readonly calls: string[] = [];
  private readonly failures = new Map<Op, (password?: string) => Promise<never>>();

  /** `message` may say `$password`, as some backends echo what they were given. */
  failWith(op: Op, message: string): this {
    this.failures.set(op, (password) => Promise.reject(new Error(message.replace('$password', password ?? ''))));
    return this;
  }

  hang(op: Op): this {
    this.failures.set(op, () => new Promise<never>(() => {}));
    return this;
  }

  /** Rejects, but only after the store has stopped waiting: a late failure must not go unhandled. */
  failLate(op: Op, afterMs: number): this {
    this.failures.set(
      op,
      () => new Promise<never>((_, reject) => setTimeout(() => reject(new Error('late failure')), afterMs)),
    );
    return this;
  }

  heal(): this {
    this.failures.clear();
    return this;
  }

  async getPassword(service: string, account: string): Promise<string | null> {
    this.calls.push(`get ${service} ${account}`);
    const fail = this.failures.get('getPassword');
    if (fail) return fail();
    return this.items.get(`${service}\n${account}`) ?? null;
  }

  async setPassword(service: string, account: string, password: string): Promise<void> {
    this.calls.push(`set ${service} ${account}`);
    const fail = this.failures.get('setPassword');
    if (fail) return fail(password);
    this.items.set(`${service}\n${account}`, password);
  }

  async deletePassword(service: string, account: string): Promise<boolean> {
    this.calls.push(`delete ${service} ${account}`);
    const fail = this.failures.get('deletePassword');
    if (fail) return fail();
    return this.items.delete(`${service}\n${account}`);
  }
}

/** Every way a value commonly leaks into logs, crash reports or IPC payloads. */
export function renderings(value: unknown): string[] {
  const out = [String(value), inspect(value, { showHidden: true, depth: Infinity, getters: true })];
  try {
    out.push(JSON.stringify(value) ?? '');
  } catch {
    // Circular values cannot reach IPC either.
  }
  if (value instanceof Error) out.push(value.message, value.stack ?? '', JSON.stringify({ ...value }));
  return out;
}

export function expectNoSecret(value: unknown, secret: string): void {
  for (const text of renderings(value)) expect(text).not.toContain(secret);
}

/** The error a call throws, failing the test if it does not throw. */
export async function thrown(work: () => Promise<unknown>): Promise<Error> {
  try {
    await work();
  } catch (err) {
    expect(err).toBeInstanceOf(Error);
    return err as Error;
  }
  throw new Error('expected the call to throw');
}
