// Against a real Secret Service: the private gnome-keyring that scripts/test-keychain.sh starts.
import { randomUUID } from 'node:crypto';
import keytar from 'keytar';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  accountFor,
  createKeytarSecretStore,
  createSecretStore,
  KEYCHAIN_SERVICE,
} from '../../../electron/core/secrets';
import { findLeaks, sandboxDirs } from './disk-scan';
import { assertSandboxed, expected } from './expectation';

const scite = accountFor('https://API.example.test/');
const local = accountFor('http://127.0.0.1:8787/');

describe.runIf(expected === 'real')('SecretStore with a real OS keychain', () => {
  beforeAll(() => {
    assertSandboxed();
  });

  it('reports a working keychain and no key yet', async () => {
    const store = createSecretStore();
    expect(await store.status(scite)).toEqual({ stored: false, where: 'none', keychainAvailable: true });
    expect(await store.get(scite)).toBeNull();
  });

  it('sets, reads, overwrites and clears a key in the keychain', async () => {
    const store = createSecretStore();
    const first = `cw-real-${randomUUID()}`;
    expect(await store.set(scite, first)).toEqual({ stored: true, where: 'keychain', keychainAvailable: true });
    expect(await store.get(scite)).toBe(first);
    // Stored where other tools (and the next launch) look: service "Citewise", account = base URL.
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, 'https://api.example.test')).toBe(first);

    const second = `cw-real-${randomUUID()}`;
    await store.set(scite, second);
    expect(await store.get(scite)).toBe(second);
    expect(await keytar.findCredentials(KEYCHAIN_SERVICE)).toEqual([
      { account: 'https://api.example.test', password: second },
    ]);

    expect(await store.clear(scite)).toEqual({ stored: false, where: 'none', keychainAvailable: true });
    expect(await store.get(scite)).toBeNull();
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, 'https://api.example.test')).toBeNull();
    await expect(store.clear(scite)).resolves.toMatchObject({ stored: false });
  });

  it('keeps the keys of two services apart', async () => {
    const store = createSecretStore();
    await store.set(scite, 'key-for-scite');
    await store.set(local, 'key-for-local');
    expect(await store.get(scite)).toBe('key-for-scite');
    expect(await store.get(local)).toBe('key-for-local');
    await store.clear(local);
    expect(await store.status(local)).toMatchObject({ stored: false, where: 'none' });
    expect(await store.get(scite)).toBe('key-for-scite');
    await store.clear(scite);
  });

  it('finds the key again in a new store, as the next launch would', async () => {
    const key = `cw-real-${randomUUID()}`;
    await createSecretStore().set(scite, key);
    const next = createSecretStore();
    expect(await next.status(scite)).toEqual({ stored: true, where: 'keychain', keychainAvailable: true });
    expect(await next.get(scite)).toBe(key);
    await next.clear(scite);
  });

  it('handles keys with non-ASCII text intact', async () => {
    const store = createKeytarSecretStore({ service: 'Citewise-test' });
    const key = `clé-ключ-鍵-${randomUUID()}`;
    await store.set(scite, key);
    expect(await store.get(scite)).toBe(key);
    await store.clear(scite);
  });

  it('leaves no readable copy of the key on disk (the keyring file is encrypted)', async () => {
    const store = createSecretStore();
    const canary = `cw-canary ${randomUUID()} +/=&`;
    await store.set(scite, canary);
    expect(await store.get(scite)).toBe(canary);
    const { leaks, filesScanned } = await findLeaks(sandboxDirs(), canary);
    expect(filesScanned).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
    await store.clear(scite);
  });
});
