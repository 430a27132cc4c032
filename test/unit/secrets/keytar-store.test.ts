// The keychain store against a fake keytar: the happy path, and every way of failing closed.
import { describe, expect, it } from 'vitest';
import {
  accountFor,
  createKeytarSecretStore,
  createSecretStore,
  type KeytarStoreOptions,
  SecretStoreError,
} from '../../../electron/core/secrets';
import { expectNoSecret, FakeKeytar, thrown } from './fake-keytar';

const scite = accountFor('https://api.scite.ai/');
const local = accountFor('http://127.0.0.1:8787');
const KEY = 'sk-live-4b1d9e7c0a';
const SESSION_ONLY =
  /^No OS keychain is available \((.+)\); the key is kept for this session only and will be asked for again next time\.$/;

function storeWith(keytar: FakeKeytar, options: KeytarStoreOptions = {}) {
  const fallbacks: string[] = [];
  const store = createKeytarSecretStore({
    loadKeytar: async () => keytar,
    probeTimeoutMs: 50,
    operationTimeoutMs: 50,
    onFallback: (reason) => fallbacks.push(reason),
    ...options,
  });
  return { store, fallbacks };
}

function why(reason: string | undefined): string | undefined {
  return reason?.match(SESSION_ONLY)?.[1];
}

describe('keytar SecretStore with a working keychain', () => {
  it('stores under service "Citewise", one account per normalised base URL', async () => {
    const keytar = new FakeKeytar();
    const { store, fallbacks } = storeWith(keytar);
    expect(await store.status(scite)).toEqual({ stored: false, where: 'none', keychainAvailable: true });
    expect(await store.set(scite, KEY)).toEqual({ stored: true, where: 'keychain', keychainAvailable: true });
    expect(keytar.items.get('Citewise\nhttps://api.scite.ai')).toBe(KEY);
    expect(await store.get(scite)).toBe(KEY);
    expect(await store.status(scite)).toEqual({ stored: true, where: 'keychain', keychainAvailable: true });

    await store.set(local, 'local-key');
    expect(await store.clear(scite)).toEqual({ stored: false, where: 'none', keychainAvailable: true });
    expect(await store.get(scite)).toBeNull();
    expect(await store.get(local)).toBe('local-key');
    expect(fallbacks).toEqual([]);
  });

  it('loads keytar lazily and probes the keychain once', async () => {
    const keytar = new FakeKeytar();
    let loads = 0;
    const store = createKeytarSecretStore({
      loadKeytar: async () => {
        loads += 1;
        return keytar;
      },
    });
    expect(loads).toBe(0);
    await Promise.all([store.status(scite), store.status(local), store.get(scite)]);
    await store.set(scite, KEY);
    expect(loads).toBe(1);
    expect(keytar.calls.filter((c) => c.includes('keychain-probe'))).toHaveLength(1);
  });

  it('runs calls in the order they were made', async () => {
    const { store } = storeWith(new FakeKeytar());
    const [, , after] = await Promise.all([store.set(scite, KEY), store.clear(scite), store.get(scite)]);
    expect(after).toBeNull();
  });

  it('uses the service name it is given', async () => {
    const keytar = new FakeKeytar();
    const { store } = storeWith(keytar, { service: 'Citewise-test' });
    await store.set(scite, KEY);
    expect([...keytar.items.keys()]).toEqual(['Citewise-test\nhttps://api.scite.ai']);
  });

  it('is the default kind of createSecretStore', async () => {
    const keytar = new FakeKeytar();
    const store = createSecretStore({ loadKeytar: async () => keytar });
    await store.set(scite, KEY);
    expect(keytar.items.size).toBe(1);
  });
});

describe('keytar SecretStore failing closed', () => {
  it.each([['keytar cannot load (libsecret missing)', 'the keychain library could not be loaded']])(
    'when %s, keeps keys for this session and says why',
    async (_case, expected) => {
      const fallbacks: string[] = [];
      const store = createKeytarSecretStore({
        loadKeytar: () =>
          Promise.reject(new Error('libsecret-1.so.0: cannot open shared object file: No such file or directory')),
        onFallback: (r) => fallbacks.push(r),
      });
      const status = await store.status(scite);
      expect(status).toMatchObject({ stored: false, where: 'none', keychainAvailable: false });
      expect(why(status.reason)).toBe(expected);
      expect(await store.set(scite, KEY)).toMatchObject({ stored: true, where: 'session', keychainAvailable: false });
      expect(await store.get(scite)).toBe(KEY);
      expect(fallbacks).toEqual([status.reason]);
    },
  );

  it.each([
    ['there is no D-Bus session bus', 'Could not connect: No such file or directory', 'no Secret Service is running'],
    ['D-Bus cannot autolaunch', 'Cannot autolaunch D-Bus without X11 $DISPLAY', 'no Secret Service is running'],
    [
      'nothing provides the Secret Service',
      'GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided by any .service files',
      'no Secret Service is running',
    ],
    ['the keychain is locked', 'Cannot get secret of a locked object', 'the keychain is locked'],
    ['macOS refuses interaction', 'User interaction is not allowed.', 'the keychain is locked'],
    ['access is denied', 'Access denied', 'access to the keychain was denied'],
    ['the error is unfamiliar', 'something odd happened', 'the keychain reported an error'],
  ])('when %s at the probe, keeps keys for this session and says why', async (_case, message, expected) => {
    const keytar = new FakeKeytar().failWith('getPassword', message);
    const { store, fallbacks } = storeWith(keytar);
    const status = await store.status(scite);
    expect(status).toEqual({
      stored: false,
      where: 'none',
      keychainAvailable: false,
      reason: expect.stringMatching(SESSION_ONLY),
    });
    expect(why(status.reason)).toBe(expected);
    expect(status.reason).not.toContain(message);

    expect(await store.set(scite, KEY)).toEqual({
      stored: true,
      where: 'session',
      keychainAvailable: false,
      reason: status.reason,
    });
    expect(await store.get(scite)).toBe(KEY);
    expect(keytar.calls.filter((c) => c.startsWith('set'))).toEqual([]);
    expect(keytar.items.size).toBe(0);
    expect(await store.clear(scite)).toMatchObject({ stored: false, where: 'none', keychainAvailable: false });
    expect(await store.get(scite)).toBeNull();
    expect(fallbacks).toHaveLength(1);
  });

  it('when the keychain does not answer, gives up after the probe timeout', async () => {
    const keytar = new FakeKeytar().hang('getPassword');
    const { store } = storeWith(keytar, { probeTimeoutMs: 30 });
    const started = Date.now();
    const status = await store.status(scite);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(why(status.reason)).toBe('the keychain did not answer in time');
    await store.set(scite, KEY);
    expect(await store.get(scite)).toBe(KEY);
  });

  it('when loading keytar hangs, gives up after the probe timeout', async () => {
    const store = createKeytarSecretStore({ loadKeytar: () => new Promise(() => {}), probeTimeoutMs: 30 });
    expect(why((await store.status(scite)).reason)).toBe('the keychain did not answer in time');
  });

  it('when a keychain call fails after the store gave up on it, nothing is left unhandled', async () => {
    const keytar = new FakeKeytar().failLate('setPassword', 80);
    const { store } = storeWith(keytar, { operationTimeoutMs: 20 });
    expect(await store.set(scite, KEY)).toMatchObject({ where: 'session' });
    await new Promise((resolve) => setTimeout(resolve, 150));
  });

  it('when the keychain refuses a key, keeps it for this session without echoing the refusal', async () => {
    const keytar = new FakeKeytar().failWith(
      'setPassword',
      'Cannot create an item in a locked collection: "$password"',
    );
    const { store, fallbacks } = storeWith(keytar);
    expect(await store.status(scite)).toMatchObject({ keychainAvailable: true });

    const status = await store.set(scite, KEY);
    expect(status).toMatchObject({ stored: true, where: 'session', keychainAvailable: false });
    expect(why(status.reason)).toBe('the keychain is locked');
    expect(await store.get(scite)).toBe(KEY);
    expectNoSecret(status, KEY);
    expectNoSecret(fallbacks, KEY);
    expectNoSecret(store, KEY);
  });

  it('after falling back, a new key wins over an older one in the keychain', async () => {
    const keytar = new FakeKeytar();
    const { store } = storeWith(keytar);
    await store.set(scite, 'old-key');
    keytar.failWith('setPassword', 'locked');
    await store.set(scite, KEY);
    expect(await store.get(scite)).toBe(KEY);
    expect(await store.status(scite)).toMatchObject({ where: 'session' });
  });

  it('after falling back, clear still removes an older copy from the keychain', async () => {
    const keytar = new FakeKeytar();
    const { store } = storeWith(keytar);
    await store.set(scite, 'old-key');
    keytar.failWith('setPassword', 'locked');
    await store.set(scite, KEY);
    await store.clear(scite);
    expect(keytar.items.size).toBe(0);
    expect(await store.get(scite)).toBeNull();
  });

  it('when the keychain will not delete, says the key may remain, without the key or the raw error', async () => {
    const keytar = new FakeKeytar();
    const { store } = storeWith(keytar);
    await store.set(scite, KEY);
    keytar.failWith(
      'deletePassword',
      `GDBus.Error: access denied for item with secret ${KEY} at /home/alice/.local/share/keyrings`,
    );
    const err = await thrown(() => store.clear(scite));
    expect(err).toBeInstanceOf(SecretStoreError);
    expect(err.message).toBe(
      'The API key could not be removed from the OS keychain (access to the keychain was denied); it may still be stored there.',
    );
    expectNoSecret(err, KEY);
    expectNoSecret(err, '/home/alice');
    expect(err.cause).toBeUndefined();
  });

  it('when a read fails later, falls back and reports no key rather than throwing', async () => {
    const keytar = new FakeKeytar();
    const { store } = storeWith(keytar);
    await store.set(scite, KEY);
    keytar.hang('getPassword');
    expect(await store.get(scite)).toBeNull();
    expect(await store.status(scite)).toMatchObject({ stored: false, where: 'none', keychainAvailable: false });
  });

  it('shows nothing of its keys when printed, stringified or inspected', async () => {
    const { store } = storeWith(new FakeKeytar().failWith('getPassword', 'Could not connect'));
    await store.set(scite, KEY);
    expect(await store.get(scite)).toBe(KEY);
    expectNoSecret(store, KEY);
    expect(String(store)).toBe('[SecretStore (OS keychain)]');
    expect(Object.keys(store).sort()).toEqual(['clear', 'get', 'set', 'status']);
    expect(Object.isFrozen(store)).toBe(true);
  });

  it('refuses a bad key before touching the keychain', async () => {
    const keytar = new FakeKeytar();
    const { store } = storeWith(keytar);
    await expect(store.set(scite, `${KEY}\n`)).rejects.toThrow(SecretStoreError);
    expect(keytar.calls).toEqual([]);
  });
});
