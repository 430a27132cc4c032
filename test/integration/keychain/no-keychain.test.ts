// With no Secret Service at all: the store must say so, keep the key in memory, and write nothing.
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountFor, createSecretStore } from '../../../electron/core/secrets';
import { findLeaks, leakForms, sandboxDirs } from './disk-scan';
import { assertSandboxed, expected } from './expectation';

const scite = accountFor('https://api.example.test');
const REASON =
  'No OS keychain is available (no Secret Service is running); the key is kept for this session only and will be asked for again next time.';

describe.runIf(expected === 'none')('SecretStore with no OS keychain', () => {
  beforeAll(() => {
    assertSandboxed();
  });

  it('says there is no keychain, and why, in words for the user', async () => {
    const store = createSecretStore();
    expect(await store.status(scite)).toEqual({
      stored: false,
      where: 'none',
      keychainAvailable: false,
      reason: REASON,
    });
  });

  it('keeps the key for this session only', async () => {
    const store = createSecretStore();
    const key = `cw-session-${randomUUID()}`;
    expect(await store.set(scite, key)).toEqual({
      stored: true,
      where: 'session',
      keychainAvailable: false,
      reason: REASON,
    });
    expect(await store.get(scite)).toBe(key);
    expect(await createSecretStore().get(scite)).toBeNull();
    expect(await store.clear(scite)).toMatchObject({ stored: false, where: 'none' });
    expect(await store.get(scite)).toBeNull();
  });

  it('writes the key to disk in no form', async () => {
    const store = createSecretStore();
    const canary = `cw-canary ${randomUUID()} +/=&`;
    await store.set(scite, canary);
    expect(await store.get(scite)).toBe(canary);
    await store.status(scite);

    const { leaks, filesScanned } = await findLeaks(sandboxDirs(), canary);
    expect(filesScanned).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
  });

  it('has a scan that would find a leak in each form', async () => {
    // Without this, a scan that looks in the wrong place or for the wrong bytes would pass anything.
    const dataDir = process.env.CITEWISE_DATA_DIR!;
    const canary = `cw-canary ${randomUUID()} +/=&`;
    const forms = leakForms(canary);
    const dir = join(dataDir, 'scan-self-test');
    await mkdir(dir, { recursive: true });
    for (const [form, bytes] of forms) {
      await writeFile(
        join(dir, form.replaceAll(/[^a-zA-Z0-9+-]/g, '_')),
        Buffer.concat([Buffer.from('x'.repeat(7)), bytes, Buffer.from('y')]),
      );
    }
    await writeFile(join(dir, 'base64-inside'), `prefix-${Buffer.from(`ab${canary}cd`).toString('base64')}-suffix`);
    const { leaks } = await findLeaks([dir], canary);
    const found = new Set(leaks.map((l) => l.form));
    for (const form of forms.keys()) expect(found, form).toContain(form);
    expect(leaks.some((l) => l.path.endsWith('base64-inside'))).toBe(true);
  });
});
