// Settings → Editors: the app's editor API follows the setting (on by default) and its port, and a
// taken port becomes a status with the plain message instead of a failure.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/ipc';
import { followEditorSettings, type EditorApiStatus } from '../../../electron/api/controller';
import { send, startFixture, type Fixture } from './helpers';
import { freePort } from '../../helpers/free-port';

const probe = (port: number) =>
  send(port, 'GET', '/better-bibtex/cayw?probe=1', { 'User-Agent': 'curl/8' }).then(
    (r) => r.body,
    (e: NodeJS.ErrnoException) => e.code,
  );

describe('the editor API follows Settings → Editors', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture();
  });
  afterAll(async () => {
    await f.close();
  });

  it('is on by default, on port 23119', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ editorApi: true, editorApiPort: 23119 });
  });

  it('starts, stops, moves and reports a taken port', async () => {
    const first = await freePort();
    const update = async (patch: object) => {
      const r = await f.core.invoke('settings.update', patch);
      if (!r.ok) throw new Error(r.error.message);
    };
    await update({ editorApiPort: first });
    const seen: EditorApiStatus[] = [];
    const editors = await followEditorSettings(f.core, { openPicker: () => {}, onStatus: (s) => seen.push(s) });
    try {
      expect(editors.status()).toEqual({ state: 'running', origin: `http://127.0.0.1:${first}`, port: first });
      expect(await probe(first)).toBe('ready');

      await update({ editorApi: false });
      await editors.settled();
      expect(editors.status()).toEqual({ state: 'off' });
      expect(await probe(first)).toBe('ECONNREFUSED');

      const blocker: Server = createServer();
      await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
      const taken = (blocker.address() as { port: number }).port;
      try {
        await update({ editorApi: true, editorApiPort: taken });
        await editors.settled();
        // The port offered is one that was free: the next one up, unless that is taken too.
        const status = editors.status() as { suggestedPort: number };
        expect(status.suggestedPort).toBeGreaterThan(taken);
        expect(status).toEqual({
          state: 'error',
          port: taken,
          suggestedPort: status.suggestedPort,
          message: `Port ${taken} is in use; run \`citewise api --port ${status.suggestedPort}\` or choose another port in Settings → Editors.`,
        });
      } finally {
        blocker.close();
      }

      const second = await freePort();
      await update({ editorApiPort: second });
      await editors.settled();
      expect(editors.status()).toMatchObject({ state: 'running', port: second });
      expect(await probe(second)).toBe('ready');
    } finally {
      await editors.close();
    }
    expect(editors.status()).toEqual({ state: 'off' });
    expect(seen.map((s) => s.state)).toEqual(['running', 'off', 'error', 'running', 'off']);
  });

  it('refuses a port below 1024 in the setting', async () => {
    const r = await f.core.invoke('settings.update', { editorApiPort: 80 });
    expect(r.ok).toBe(false);
  });
});
