// The PDF reader's channels (shared/ipc/reader.ts): an attached PDF's bytes in bounded ranges, the
// refusals (missing file with where it was expected, not a PDF, a range past the end or too large),
// and the page last read, per file. Then the same bytes over browser mode's WebSocket, which keeps
// its token and Origin rules: the reader adds no route and no CSP source.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READER_CHUNK_MAX, type CitewiseApi, type IpcError, type Result } from '../../../shared/ipc';
import { createCore, type Core } from '../../../electron/core';
import { buildCsp } from '../../../electron/core/csp';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import { startHost, type Host } from '../../../electron/host/server';
import { hostRequest, wsOutcome } from '../../helpers/host-requests';
import { bodyLines, makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';
import { fakeRendererDir } from '../../helpers/transports';

const BIB = `@article{alpha2020, title = {Alpha paper}, author = {Doe, Jane}, year = 2020}
@article{beta2021, title = {Beta paper}, author = {Roe, Rick}, year = 2021}
`;

function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

function failure<T>(r: Result<T>): IpcError {
  if (r.ok) throw new Error(`expected a failure, got ${JSON.stringify(r.value)}`);
  return r.error;
}

describe('reader channels', () => {
  let dir: ReturnType<typeof tempDir>;
  let core: Core;
  let api: CitewiseApi;
  let alpha: number;
  let beta: number;
  let pdfPath: string;
  let pdf: Uint8Array;
  let attachment: number;

  beforeAll(async () => {
    dir = tempDir();
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
    api = createInProcessApi(core);
    value(await api.invoke('library.import', { text: BIB, fileName: 'seed.bib' }));
    const rows = value(await api.invoke('library.list', {})).rows;
    alpha = rows.find((r) => r.title === 'Alpha paper')!.id;
    beta = rows.find((r) => r.title === 'Beta paper')!.id;
    // A PDF larger than one range (figures of noise do not compress): 3 pages of 600 KB each.
    pdf = await makePdf({
      title: 'Alpha paper',
      pages: [bodyLines(1), bodyLines(2), bodyLines(3)],
      figureBytes: 600_000,
    });
    expect(pdf.length).toBeGreaterThan(READER_CHUNK_MAX);
    pdfPath = join(dir.path, 'alpha.pdf');
    writeFileSync(pdfPath, pdf);
    attachment = value(await api.invoke('library.attachments.add', { itemId: alpha, path: pdfPath })).id;
  });

  afterAll(async () => {
    await core.close();
    dir.remove();
  });

  it('opens a PDF with its size and no last page yet', async () => {
    expect(value(await api.invoke('reader.open', { itemId: alpha, id: attachment }))).toEqual({
      itemId: alpha,
      attachmentId: attachment,
      name: 'alpha.pdf',
      size: pdf.length,
      lastPage: null,
    });
  });

  it('reads the file in ranges of at most READER_CHUNK_MAX, the last one short', async () => {
    const parts: Buffer[] = [];
    for (let offset = 0; offset < pdf.length; offset += READER_CHUNK_MAX) {
      const chunk = value(
        await api.invoke('reader.read', { itemId: alpha, id: attachment, offset, length: READER_CHUNK_MAX }),
      );
      expect(chunk.offset).toBe(offset);
      parts.push(Buffer.from(chunk.data, 'base64'));
    }
    expect(parts[0]!.length).toBe(READER_CHUNK_MAX);
    expect(parts.at(-1)!.length).toBe(pdf.length % READER_CHUNK_MAX);
    expect(Buffer.concat(parts).equals(Buffer.from(pdf))).toBe(true);
    // At the end: nothing; past it, or more than READER_CHUNK_MAX at once: refused.
    const end = value(
      await api.invoke('reader.read', { itemId: alpha, id: attachment, offset: pdf.length, length: 10 }),
    );
    expect(end.data).toBe('');
    expect(
      failure(await api.invoke('reader.read', { itemId: alpha, id: attachment, offset: pdf.length + 1, length: 10 }))
        .message,
    ).toContain('past the end of alpha.pdf');
    expect(
      failure(
        await api.invoke('reader.read', { itemId: alpha, id: attachment, offset: 0, length: READER_CHUNK_MAX + 1 }),
      ).code,
    ).toBe('INVALID_INPUT');
    expect(
      value(await api.invoke('reader.read', { itemId: alpha, id: attachment, offset: 0, length: READER_CHUNK_MAX }))
        .data.length,
    ).toBeGreaterThan(0);
  });

  it('remembers the page last read per file: the same PDF on another item opens there too', async () => {
    value(await api.invoke('reader.remember', { itemId: alpha, id: attachment, page: 3 }));
    expect(value(await api.invoke('reader.open', { itemId: alpha, id: attachment })).lastPage).toBe(3);
    const copy = value(await api.invoke('library.attachments.add', { itemId: beta, path: pdfPath }));
    expect(value(await api.invoke('reader.open', { itemId: beta, id: copy.id })).lastPage).toBe(3);
    value(await api.invoke('reader.remember', { itemId: beta, id: copy.id, page: 1 }));
    expect(value(await api.invoke('reader.open', { itemId: alpha, id: attachment })).lastPage).toBe(1);
    expect(failure(await api.invoke('reader.remember', { itemId: alpha, id: attachment, page: 0 })).code).toBe(
      'INVALID_INPUT',
    );
  });

  it('refuses a file that is not a PDF, and an attachment of another item', async () => {
    const notes = join(dir.path, 'notes.pdf');
    writeFileSync(notes, 'plain notes, named .pdf');
    const a = value(await api.invoke('library.attachments.add', { itemId: beta, path: notes }));
    const e = failure(await api.invoke('reader.open', { itemId: beta, id: a.id }));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain('notes.pdf is not a PDF');
    expect(failure(await api.invoke('reader.read', { itemId: beta, id: a.id, offset: 0, length: 10 })).code).toBe(
      'INVALID_INPUT',
    );
    // The attachment id of item alpha's PDF does not open through item beta.
    expect(failure(await api.invoke('reader.open', { itemId: beta, id: attachment })).code).toBe('NOT_FOUND');
  });

  it('says where a missing linked file was expected', async () => {
    const gone = join(dir.path, 'gone.pdf');
    writeFileSync(gone, await makePdf({ title: 'Gone', pages: [['text']] }));
    const a = value(await api.invoke('library.attachments.add', { itemId: beta, path: gone }));
    value(await api.invoke('reader.open', { itemId: beta, id: a.id }));
    rmSync(gone);
    const e = failure(await api.invoke('reader.open', { itemId: beta, id: a.id }));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toBe(
      `The linked file gone.pdf is no longer at ${gone} (moved, renamed or deleted?). Attach it again from where it is now.`,
    );
    // A range of a file opened before it went away says so too.
    expect(
      failure(await api.invoke('reader.read', { itemId: beta, id: a.id, offset: 0, length: 10 })).message,
    ).toContain(`no longer at ${gone}`);
  });

  it('says so when the file changed while it was open', async () => {
    const changing = join(dir.path, 'changing.pdf');
    writeFileSync(changing, await makePdf({ title: 'Changing', pages: [['one']] }));
    const a = value(await api.invoke('library.attachments.add', { itemId: beta, path: changing }));
    value(await api.invoke('reader.open', { itemId: beta, id: a.id }));
    writeFileSync(changing, await makePdf({ title: 'Changing', pages: [['one'], ['two']] }));
    const e = failure(await api.invoke('reader.read', { itemId: beta, id: a.id, offset: 0, length: 10 }));
    expect(e.code).toBe('CONFLICT');
    expect(e.message).toContain('changing.pdf changed while it was open');
  });

  describe('in browser mode', () => {
    let host: Host;
    let cookie: string;

    beforeAll(async () => {
      host = await startHost({ core, rendererDir: fakeRendererDir(dir.path) });
      const first = await hostRequest(host.port, `/?token=${host.token}`);
      cookie = String(first.headers['set-cookie']).split(';')[0]!;
    });

    afterAll(async () => {
      await host.close();
    });

    it('gives the bytes only to our own page with its session, over the WebSocket', async () => {
      expect(await wsOutcome(`ws://127.0.0.1:${host.port}/ipc`)).toBe('refused 401');
      expect(
        await wsOutcome(`ws://127.0.0.1:${host.port}/ipc`, {
          headers: { Cookie: cookie },
          origin: 'http://evil.example',
        }),
      ).toBe('refused 403');
      const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, { headers: { Cookie: cookie }, origin: host.origin });
      await new Promise((r) => ws.once('open', r));
      const reply = new Promise<{ result: Result<{ data: string }> }>((r) =>
        ws.on('message', (d) => {
          const m = JSON.parse(String(d)) as { type: string; id: number; result: Result<{ data: string }> };
          if (m.type === 'result' && m.id === 1) r(m);
        }),
      );
      ws.send(
        JSON.stringify({
          type: 'invoke',
          id: 1,
          channel: 'reader.read',
          input: { itemId: alpha, id: attachment, offset: 0, length: READER_CHUNK_MAX },
        }),
      );
      const data = Buffer.from(value((await reply).result).data, 'base64');
      expect(data.equals(Buffer.from(pdf.subarray(0, READER_CHUNK_MAX)))).toBe(true);
      ws.close();
    });

    it('serves the renderer under the same CSP: workers and connections only from its own origin', async () => {
      const r = await hostRequest(host.port, '/', { Cookie: cookie });
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toBe(buildCsp({ connectSrc: [`ws://127.0.0.1:${host.port}`, `ws://localhost:${host.port}`] }));
      expect(csp).toContain("worker-src 'self'");
      expect(csp).not.toMatch(/worker-src[^;]*(blob:|data:)/);
      expect(csp).not.toMatch(/script-src[^;]*(unsafe-eval|wasm-unsafe-eval)/);
    });
  });
});
