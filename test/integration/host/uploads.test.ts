// A file to import in browser mode goes by path, as in the desktop app and the CLI: the page POSTs its
// bytes to the host (electron/host/uploads.ts), which writes them to a temporary file of the core's
// (core/chosen-files.ts) and answers with a selection; the preview and the import name that selection,
// so the file's text never crosses the WebSocket. Refused: anything but the app's own page, a name
// with a folder, an empty file, one over the bound (both sides of it); the temporary file goes once
// imported, when pushed out by newer selections, and when the core closes.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { ChosenFiles, MAX_SELECTIONS } from '../../../electron/core/chosen-files';
import { silentLogger } from '../../../electron/core/log';
import { MAX_UPLOAD_BYTES, receiveUpload } from '../../../electron/host/uploads';
import { startHost, type Host } from '../../../electron/host/server';
import type { ImportPreview, ImportReport, PdfSelection } from '../../../shared/ipc';
import { fakeRendererDir } from '../../helpers/transports';
import { tempDir } from '../../helpers/tmp';
import type { HostReply } from '../../helpers/host-requests';

const BIB = `@article{doe2020, title = {Alpha paper}, author = {Doe, Jane}, year = 2020, doi = {10.1234/alpha}}
@book{poe2019, title = {Gamma book}, author = {Poe, Paula}, year = 2019, file = {:pdfs/gamma.pdf:PDF}}
`;

/** A POST of `body` on its own connection; `length` false sends it chunked (no Content-Length). */
function post(
  port: number,
  path: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
  length = true,
): Promise<HostReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: {
          Host: `127.0.0.1:${port}`,
          'Content-Type': 'application/octet-stream',
          ...(length ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    // A refusal may close the connection before the body is all sent: the answer is what counts.
    req.on('error', (err) => (/EPIPE|ECONNRESET/.test(String(err)) ? undefined : reject(err)));
    req.end(body);
  });
}

describe('importing an upload by path (browser mode)', () => {
  let dir: ReturnType<typeof tempDir>;
  let core: Core;
  let host: Host;
  let page: Record<string, string>;

  beforeAll(async () => {
    dir = tempDir();
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
    host = await startHost({ core, rendererDir: fakeRendererDir(dir.path) });
    const first = await new Promise<string>((resolve) => {
      request({ host: '127.0.0.1', port: host.port, path: `/?token=${host.token}`, agent: false }, (res) => {
        res.resume();
        resolve(String(res.headers['set-cookie']).split(';')[0]!);
      }).end();
    });
    page = { Cookie: first, Origin: host.origin };
  });

  afterAll(async () => {
    await host.close();
    await core.close();
    dir.remove();
  });

  const upload = (name: string, body: string | Buffer, headers = page) =>
    post(host.port, `/uploads/import?name=${encodeURIComponent(name)}`, body, headers);

  it('refuses what is not the app’s own page, saying why', async () => {
    // No session cookie (the launch token as a header is not one either), or another origin.
    expect((await upload('a.bib', BIB, { Origin: host.origin })).status).toBe(401);
    expect((await upload('a.bib', BIB, { Origin: host.origin, Authorization: `Bearer ${host.token}` })).status).toBe(
      401,
    );
    const foreign = await upload('a.bib', BIB, { Cookie: page.Cookie!, Origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain('does not come from the app’s page');
    expect((await upload('a.bib', BIB, { Cookie: page.Cookie! })).status).toBe(403);
    // Any other route still takes GET and HEAD only.
    expect((await post(host.port, '/uploads/other?name=a.bib', BIB, page)).status).toBe(405);
  });

  it('refuses a name with a folder or control characters, no name, and an empty file', async () => {
    for (const name of ['../x.bib', 'a/b.bib', 'a\\b.bib', 'a\u0007.bib', '   ']) {
      const r = await upload(name, BIB);
      expect(r.status, name).toBe(400);
      expect(r.body).toContain('without a folder');
    }
    expect((await post(host.port, '/uploads/import', BIB, page)).status).toBe(400);
    const empty = await upload('empty.bib', '');
    expect(empty).toMatchObject({ status: 400, body: 'Citewise: empty.bib is empty.\n' });
  });

  it('refuses a declared size over the bound before reading it', async () => {
    const r = await post(host.port, '/uploads/import?name=big.bib', 'x', {
      ...page,
      'Content-Length': String(MAX_UPLOAD_BYTES + 1),
    });
    expect(r.status).toBe(413);
    expect(r.body).toContain(`big.bib is larger than the ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
  });

  it('previews and imports the upload by its selection; the temporary file goes once imported', async () => {
    const r = await upload('refs from Mendeley.bib', BIB);
    expect(r.status).toBe(200);
    const selection = JSON.parse(r.body) as PdfSelection;
    expect(selection.names).toEqual(['refs from Mendeley.bib']);
    const file = { selection: selection.selection, index: 0 };
    const preview = await core.invoke('library.import.preview', { file, sample: 8 });
    expect(preview.ok).toBe(true);
    const p = (preview as { value: ImportPreview }).value;
    expect(p).toMatchObject({ format: 'bibtex', entries: 2, duplicates: 0 });
    // An upload does not say where it was: its relative links need the folder typed.
    expect(p.files).toEqual({ links: 1, relative: 1, folders: [] });
    const uploads = dirname(core.uploads.path());
    expect(readdirSync(uploads)).toHaveLength(1);

    const imported = await core.invoke('library.import', { file });
    expect(imported.ok).toBe(true);
    const report = (imported as { value: ImportReport }).value;
    expect(report).toMatchObject({ format: 'bibtex', entries: 2, added: 2 });
    const item = await core.invoke('library.item.get', { id: report.ids[0]! });
    expect(item).toMatchObject({ ok: true, value: { source: 'refs from Mendeley.bib' } });
    expect(readdirSync(uploads)).toEqual([]);
    // Imported once: the selection is gone, and saying so is all a second import does.
    const again = await core.invoke('library.import', { file });
    expect(again).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(!again.ok && again.error.message).toContain('choose it again');
  });

  it('takes a file or text, exactly one of them', async () => {
    const both = await core.invoke('library.import.preview', { text: BIB, file: { selection: 'x', index: 0 } });
    expect(both).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(!both.ok && both.error.message).toContain('either a chosen file or pasted text');
    const neither = await core.invoke('library.import', {});
    expect(neither).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const text = await core.invoke('library.import.preview', { text: BIB, fileName: 'pasted.bib' });
    expect(text).toMatchObject({ ok: true, value: { entries: 2 } });
  });

  it('never attaches an upload as a PDF (pdfs.addChosen refuses its selection)', async () => {
    const r = await upload('not-a-pdf.bib', BIB);
    const selection = (JSON.parse(r.body) as PdfSelection).selection;
    const added = await core.invoke('pdfs.addChosen', { selection, index: 0 });
    expect(added).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('reads a file chosen in the desktop app where it is: its relative links start from its folder', async () => {
    writeFileSync(
      join(dir.path, 'refs.bib'),
      BIB.replace('doe2020', 'doe2020b').replace('10.1234/alpha', '10.1234/beta'),
    );
    const chosen = core.selectDroppedPdfs([join(dir.path, 'refs.bib')]);
    expect(chosen.ok).toBe(true);
    const selection = (chosen as { value: PdfSelection }).value.selection;
    const preview = await core.invoke('library.import.preview', { file: { selection, index: 0 }, sample: 2 });
    expect((preview as { value: ImportPreview }).value.files).toEqual({ links: 1, relative: 1, folders: [dir.path] });
    // The user's file stays where it is, imported or not.
    const imported = await core.invoke('library.import', { file: { selection, index: 0 } });
    expect(imported.ok).toBe(true);
    expect(existsSync(join(dir.path, 'refs.bib'))).toBe(true);
  });
});

describe('the upload bound, both sides (a small bound on a server of the test’s own)', () => {
  const files = new ChosenFiles();
  let server: Server;
  let port = 0;
  const BOUND = 1000;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      void receiveUpload(
        req,
        res,
        url,
        { path: () => files.uploadPath(), adopt: (p, n) => files.adoptUpload(p, n) },
        { session: true, origin: true },
        (r, status, text) => {
          r.writeHead(status, { 'Content-Type': 'text/plain' });
          r.end(text);
        },
        silentLogger,
        BOUND,
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    files.close();
  });

  it('takes exactly the bound and refuses one byte more, declared or counted as it arrives', async () => {
    const folder = dirname(files.uploadPath());
    for (const length of [true, false]) {
      const at = await post(port, '/?name=at.bib', Buffer.alloc(BOUND, 0x61), {}, length);
      expect(at.status, `at the bound, length ${length}`).toBe(200);
      const over = await post(port, '/?name=over.bib', Buffer.alloc(BOUND + 1, 0x61), {}, length);
      expect(over.status, `over the bound, length ${length}`).toBe(413);
    }
    // Only the two accepted uploads are kept; the refused ones left nothing behind.
    expect(readdirSync(folder)).toHaveLength(2);
  });

  it(`keeps ${MAX_SELECTIONS} selections; the next pushes out the oldest and deletes its upload`, async () => {
    const chosen = new ChosenFiles();
    const made: { selection: string; path: string }[] = [];
    for (let i = 0; i < MAX_SELECTIONS + 1; i++) {
      const path = chosen.uploadPath();
      writeFileSync(path, `upload ${i}`);
      made.push({ selection: chosen.adoptUpload(path, `${i}.bib`).selection, path });
    }
    expect(chosen.get(made[0]!.selection, 0)).toBeUndefined();
    expect(existsSync(made[0]!.path)).toBe(false);
    expect(chosen.get(made[1]!.selection, 0)).toMatchObject({ name: '1.bib', upload: true });
    expect(existsSync(made[1]!.path)).toBe(true);
    chosen.close();
    expect(existsSync(dirname(made[1]!.path))).toBe(false);
  });
});
