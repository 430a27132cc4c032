import { describe, expect, it } from 'vitest';
import {
  accountFor,
  createMemorySecretStore,
  createSecretStore,
  SecretStoreError,
} from '../../../electron/core/secrets';
import { expectNoSecret, thrown } from './fake-keytar';

const scite = accountFor('https://api.scite.ai');
const local = accountFor('http://127.0.0.1:8787');
const KEY = 'sk-memory-7f3a9c2e';

describe('memory SecretStore', () => {
  it('sets, reads, overwrites and clears a key, as a working keychain would', async () => {
    const store = createMemorySecretStore();
    expect(await store.status(scite)).toEqual({ stored: false, where: 'none', keychainAvailable: true });
    expect(await store.get(scite)).toBeNull();

    expect(await store.set(scite, KEY)).toEqual({ stored: true, where: 'keychain', keychainAvailable: true });
    expect(await store.get(scite)).toBe(KEY);
    await store.set(scite, `${KEY}-2`);
    expect(await store.get(scite)).toBe(`${KEY}-2`);

    expect(await store.clear(scite)).toEqual({ stored: false, where: 'none', keychainAvailable: true });
    expect(await store.get(scite)).toBeNull();
    await expect(store.clear(scite)).resolves.toMatchObject({ stored: false });
  });

  it('keeps one key per service', async () => {
    const store = createMemorySecretStore();
    await store.set(scite, 'key-a');
    await store.set(local, 'key-b');
    await store.clear(local);
    expect(await store.get(scite)).toBe('key-a');
    expect(await store.get(local)).toBeNull();
  });

  it('as the session fallback, says the keychain is not used and why', async () => {
    const store = createMemorySecretStore({ as: 'session', why: 'no Secret Service is running' });
    const reason =
      'No OS keychain is available (no Secret Service is running); the key is kept for this session only and will be asked for again next time.';
    expect(await store.status(scite)).toEqual({ stored: false, where: 'none', keychainAvailable: false, reason });
    expect(await store.set(scite, KEY)).toEqual({ stored: true, where: 'session', keychainAvailable: false, reason });
  });

  it('is what createSecretStore makes for the memory and session kinds', async () => {
    expect(await createSecretStore({ kind: 'memory' }).set(scite, KEY)).toMatchObject({ where: 'keychain' });
    expect(await createSecretStore({ kind: 'session' }).set(scite, KEY)).toMatchObject({
      where: 'session',
      keychainAvailable: false,
      reason: expect.stringContaining('turned off'),
    });
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['with a line break', `${KEY}\n`],
    ['with a NUL', `${KEY}\0tail`],
    ['too long', 'k'.repeat(2049)],
  ])('refuses a key that is %s, without quoting it', async (_what, bad) => {
    const store = createMemorySecretStore();
    const err = await thrown(() => store.set(scite, bad));
    expect(err).toBeInstanceOf(SecretStoreError);
    expect((err as SecretStoreError).code).toBe('INVALID_INPUT');
    if (bad.trim() !== '') expectNoSecret(err, bad.trim());
    expect(await store.status(scite)).toMatchObject({ stored: false });
  });

  it('refuses an account that is not a string', async () => {
    const store = createMemorySecretStore();
    await expect(store.get(undefined as never)).rejects.toThrow(SecretStoreError);
  });

  it('shows nothing of its keys when printed, stringified or inspected', async () => {
    const store = createMemorySecretStore();
    await store.set(scite, KEY);
    expectNoSecret(store, KEY);
    expectNoSecret({ nested: { store } }, KEY);
    expect(JSON.stringify(store)).toBe('"[SecretStore (memory)]"');
  });
});
