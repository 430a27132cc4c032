// The shell's state (renderer/src/lib/state/{app,theme}.svelte.ts) in Node against a real in-process
// core, on the paths that need no window (start() and show() read the address bar and the OS theme):
// a reconnect reads everything again, settings changed through it (the theme follows), and refusals
// kept as its error.
import { describe, expect, it } from 'vitest';
import { AppState } from '../../../renderer/src/lib/state/app.svelte';
import { coreForTests, offlineCore, until } from './helpers';

const env = coreForTests(() => offlineCore('app'));

describe('AppState against the core', () => {
  it('reads the app, settings and jobs again on a reconnect', async () => {
    const app = new AppState(env.t.api);
    expect(app.info).toBeNull();
    app.connection = 'closed';
    expect(app.info).toBeNull();
    app.connection = 'open';
    await until(() => app.info !== null && app.settings !== null, 'the first read');
    expect(app.jobs).toEqual([]);
    expect(app.error).toBeNull();
  });

  it('changes a setting, and the theme follows it', async () => {
    const app = new AppState(env.t.api);
    expect(app.theme.resolved).toBe('light'); // "system", and no OS preference read yet
    await app.updateSettings({ theme: 'dark' });
    expect(app.error).toBeNull();
    expect(app.settings?.theme).toBe('dark');
    expect(app.theme.resolved).toBe('dark');
    await app.updateSettings({ theme: 'system' });
    expect(app.theme.resolved).toBe('light');
  });

  it('keeps a refusal as its error until dismissed', async () => {
    const app = new AppState(env.t.api);
    await app.updateSettings({ theme: 'purple' as never });
    expect(app.error?.code).toBe('INVALID_INPUT');
    expect(app.settings).toBeNull();
    app.dismissError();
    await app.cancelJob('no-such-job');
    expect(app.error?.code).toBe('NOT_FOUND');
  });
});
