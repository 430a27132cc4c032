// The HTTP transport's transaction rules, without a server: one at a time, a plugin's error, and a
// plugin that never answers (below, at and above the time it is given).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUSY_MESSAGE, HttpTransport, PluginError, type Reply } from '../../../../electron/api/integration/transport';
import { TransportClosed, type DocumentCall } from '../../../../electron/api/integration/session';

interface Held {
  status?: number;
  body?: string;
  close(): void;
}

function reply(): Reply & { held: Held } {
  let listener = () => {};
  const held: Held = { close: () => listener() };
  const r = ((status: number, _type: string, body: string) => {
    held.status = status;
    held.body = body;
  }) as Reply & { held: Held };
  r.onClose = (l) => (listener = l);
  r.held = held;
  return r;
}

afterEach(() => vi.useRealTimers());

describe('HttpTransport', () => {
  it('answers execCommand with the first call and respond with the next, until Document.complete', async () => {
    const seen: unknown[] = [];
    const t = new HttpTransport(async (_command, call) => {
      seen.push(await call('Application.getActiveDocument', []));
      seen.push(await call('Document.getDocumentData', ['d']));
      await call('Document.complete', ['d']);
    });
    const first = reply();
    t.execCommand({ command: 'refresh', docId: 'd' }, first);
    expect(JSON.parse(first.held.body!)).toEqual({ command: 'Application.getActiveDocument', arguments: [] });
    const second = reply();
    // The Connector's double encoding: a JSON string holding the JSON result.
    t.respond(JSON.stringify({ documentID: 'd' }), second);
    await vi.waitFor(() => expect(second.held.body).toBeDefined());
    expect(JSON.parse(second.held.body!)).toEqual({ command: 'Document.getDocumentData', arguments: ['d'] });
    const third = reply();
    t.respond('', third);
    await vi.waitFor(() => expect(third.held.body).toBeDefined());
    expect(JSON.parse(third.held.body!)).toEqual({ command: 'Document.complete', arguments: ['d'] });
    await vi.waitFor(() => expect(t.busy).toBe(false));
    expect(seen).toEqual([{ documentID: 'd' }, '']);
  });

  it('tells a second document to wait (503), and a respond without a command is refused', () => {
    const t = new HttpTransport(() => new Promise(() => {}));
    t.execCommand({ command: 'refresh' }, reply());
    const second = reply();
    t.execCommand({ command: 'addEditCitation', docId: 'other' }, second);
    expect(second.held).toMatchObject({ status: 503, body: BUSY_MESSAGE });
    const idle = new HttpTransport(() => Promise.resolve());
    const stray = reply();
    idle.respond({}, stray);
    expect(stray.held.status).toBe(400);
    const bad = reply();
    idle.execCommand({}, bad);
    expect(bad.held.status).toBe(400);
  });

  it("turns the plugin's {error, message} into an error the command sees", async () => {
    let caught: unknown;
    const t = new HttpTransport(async (_c, call) => {
      try {
        await call('Document.insertField', ['d', 'Http', 0]);
      } catch (e) {
        caught = e;
      }
    });
    t.execCommand({ command: 'addEditCitation' }, reply());
    t.respond(JSON.stringify({ error: 'Alert', message: 'Cannot insert here', stack: {} }), reply());
    await vi.waitFor(() => expect(caught).toBeInstanceOf(PluginError));
    expect((caught as PluginError).message).toBe('Cannot insert here');
  });

  it('a plugin that never answers is given up at its time, not before', async () => {
    vi.useFakeTimers();
    let outcome: unknown = 'waiting';
    const command = async (_c: string, call: DocumentCall) => {
      try {
        outcome = await call('Document.getFields', ['d', 'Http']);
      } catch (e) {
        outcome = e;
      }
    };
    const t = new HttpTransport(command, { respondTimeoutMs: 1000 });
    t.execCommand({ command: 'refresh' }, reply());
    await vi.advanceTimersByTimeAsync(999);
    expect(outcome).toBe('waiting');
    expect(t.busy).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(TransportClosed);
    expect((outcome as Error).message).toMatch(/did not answer Document\.getFields within 1 s/);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.busy).toBe(false);
    // The next command runs.
    const next = reply();
    t.execCommand({ command: 'refresh' }, next);
    expect(next.held.status).toBe(200);
  });

  it('a plugin that closes its request ends the command and aborts its dialog', async () => {
    let signal: AbortSignal | undefined;
    let outcome: unknown;
    const t = new HttpTransport(async (_c, call, s) => {
      signal = s;
      try {
        await call('Document.getFields', ['d']);
        await new Promise((r) => s.addEventListener('abort', r)); // a picker open
        await call('Field.setText', ['d', 'f', 'x', true]);
      } catch (e) {
        outcome = e;
      }
    });
    t.execCommand({ command: 'refresh' }, reply());
    const held = reply();
    t.respond('[]', held);
    await vi.waitFor(() => expect(signal).toBeDefined());
    held.held.close();
    await vi.waitFor(() => expect(outcome).toBeInstanceOf(TransportClosed));
    expect(signal!.aborted).toBe(true);
    await vi.waitFor(() => expect(t.busy).toBe(false));
  });
});
