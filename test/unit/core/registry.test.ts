import { describe, expect, it, vi } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import { HandlerRegistry } from '../../../electron/core/registry';

const ctx = { signal: new AbortController().signal };

describe('HandlerRegistry', () => {
  it('throws on a channel registered twice', () => {
    const registry = new HandlerRegistry(() => {});
    registry.register({ 'diag.echo': ({ payload }: { payload: unknown }) => ({ payload }) });
    expect(() => registry.register({ 'diag.echo': () => ({ payload: 1 }) })).toThrow(
      /Duplicate handler for IPC channel "diag.echo"/,
    );
  });

  it('throws on a handler for a channel the contract does not declare', () => {
    const registry = new HandlerRegistry(() => {});
    expect(() => registry.register({ 'diag.nope': () => 1 })).toThrow(/does not declare/);
  });

  it('lists the channels nothing handles', () => {
    const registry = new HandlerRegistry(() => {});
    registry.register({ 'diag.echo': () => ({ payload: null }) });
    expect(registry.missing()).toContain('app.info');
    expect(registry.missing()).not.toContain('diag.echo');
  });

  it('turns a CoreError into its code and message, and an unexpected error into a generic INTERNAL', async () => {
    const report = vi.fn();
    const registry = new HandlerRegistry(report);
    registry.register({
      'jobs.cancel': () => {
        throw new CoreError('CONFLICT', 'already finished', { id: 'x' });
      },
      'jobs.list': () => {
        throw new Error('secret /home/alice/path and sk-123');
      },
    });
    expect(await registry.invoke('jobs.cancel', { id: 'x' }, ctx)).toEqual({
      ok: false,
      error: { code: 'CONFLICT', message: 'already finished', details: { id: 'x' } },
    });
    const internal = await registry.invoke('jobs.list', {}, ctx);
    expect(internal).toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: expect.not.stringContaining('sk-123') },
    });
    expect(report).toHaveBeenCalledOnce();
  });

  it('validates input before the handler runs', async () => {
    const handler = vi.fn();
    const registry = new HandlerRegistry(() => {});
    registry.register({ 'jobs.cancel': handler });
    const result = await registry.invoke('jobs.cancel', { id: '' }, ctx);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('INVALID_INPUT');
    expect(handler).not.toHaveBeenCalled();
  });

  it('reports an aborted operation as CANCELLED', async () => {
    const registry = new HandlerRegistry(() => {});
    registry.register({
      'jobs.list': () => {
        throw new DOMException('stop', 'AbortError');
      },
    });
    expect(await registry.invoke('jobs.list', {}, ctx)).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
  });
});
