// Issue 34: roles are enforced by the server (PostgreSQL roles and row-level security), not by the
// client. A reader's write is refused by the database, a member writing through SQL directly cannot
// forge versions or authors nor delete anything, a malformed object written that way is refused by every
// replica without stopping its sync, a removed member loses access at once; passwords live in the
// keychain only; TLS verifies the server's certificate.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountOfTarget, connectTo, parseSyncUrl } from '../../../electron/core/sync/connection';
import { listMembers, removeMember, setMember } from '../../../electron/core/sync/server/members';
import { postgresAvailable, type TestPostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/tmp';
import { integrity, lab, machine, snapshot, startPostgres, until, type Lab, type Machine } from './helpers';

let server: TestPostgres;
let l: Lab;
const machines: Machine[] = [];
const clients: pg.Client[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => {
  await server?.remove();
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => {});
  for (const m of machines.splice(0)) await m.remove();
  await l?.close();
});

async function as(login: string): Promise<pg.Client> {
  const c = new pg.Client({
    host: '127.0.0.1',
    port: server.port,
    user: login,
    password: `pw-${login}`,
    database: l.database,
  });
  c.on('error', () => {});
  await c.connect();
  clients.push(c);
  return c;
}

async function refused(c: pg.Client, text: string, values: unknown[] = []): Promise<string> {
  try {
    await c.query(text, values);
  } catch (err) {
    return (err as { code: string }).code;
  }
  return 'accepted';
}

describe.skipIf(!postgresAvailable())(
  'roles, members and credentials of a shared library',
  { timeout: 240_000 },
  () => {
    it("refuses a reader's writes in the database, whatever the client does", async () => {
      l = await lab(server);
      await l.member('alice', 'editor');
      await l.member('rita', 'reader');
      const a = await machine('a');
      const r = await machine('r');
      machines.push(a, r);
      await a.join(l, 'alice');
      await a.lib.importItems([{ id: 'x', type: 'book', 'citation-key': 'book1', title: 'A book' }]);
      await a.engine.syncNow();
      const before = await l.admin.query('SELECT kind, uid, version, data FROM citewise.objects ORDER BY version');

      // Through SQL, as the reader: every write is refused by PostgreSQL itself (4 statements).
      const rita = await as('rita');
      expect(
        await refused(rita, "INSERT INTO citewise.objects (kind, uid, data) VALUES ('item', 'forged', '{}')"),
      ).toBe('42501');
      expect(await refused(rita, "UPDATE citewise.objects SET data = '{}'")).toBe('42501');
      expect(await refused(rita, 'DELETE FROM citewise.objects')).toBe('42501');
      expect(
        await refused(rita, "INSERT INTO citewise.blobs (sha256, size, chunk_size) VALUES (repeat('a', 64), 1, 1)"),
      ).toBe('42501');
      // Reading is allowed.
      expect((await rita.query('SELECT count(*)::int AS n FROM citewise.objects')).rows[0].n).toBe(1);

      // Through Citewise, as the reader: the edit stays on this machine, and the status says why.
      await r.join(l, 'rita');
      await r.engine.syncNow();
      const id = (await r.lib.listing.list({ limit: 1 })).rows[0]!.id;
      await r.lib.lib.updateItem(id, { ...(await r.lib.lib.getItem(id)).csl, title: 'Changed by a reader' });
      await r.engine.syncNow();
      const status = await r.engine.status();
      expect(status).toMatchObject({ role: 'reader', pending: 1 });
      expect(status.message).toMatch(/reader of this library: 1 change\(s\) made here stay on this machine/);
      expect(
        (await l.admin.query('SELECT kind, uid, version, data FROM citewise.objects ORDER BY version')).rows,
      ).toEqual(before.rows);
    });

    it("lets a member writing through SQL forge neither versions nor authors, and refuses what they break, without stopping anyone's sync", async () => {
      l = await lab(server);
      await l.member('alice', 'editor');
      await l.member('mallory', 'editor');
      const a = await machine('a');
      machines.push(a);
      await a.join(l, 'alice');
      await a.lib.importItems([{ id: 'x', type: 'book', 'citation-key': 'book1', title: 'A book' }]);
      await a.engine.syncNow();
      const m = await as('mallory');
      // No deletes for anyone, and no rows outside the rules (a tombstone with data, an array as fields).
      expect(await refused(m, 'DELETE FROM citewise.objects')).toBe('42501');
      expect(await refused(m, "INSERT INTO citewise.objects (kind, uid, data) VALUES ('item', 'arr', '[1]')")).toBe(
        '23514',
      );
      expect(await refused(m, "INSERT INTO citewise.objects (kind, uid, data) VALUES ('Item; DROP', 'x', '{}')")).toBe(
        '23514',
      );
      expect(await refused(m, "SELECT citewise.set_member('mallory', 'admin', NULL)")).toBe('42501');
      // Versions and authors come from the server, whatever is written.
      await m.query(
        "INSERT INTO citewise.objects (kind, uid, data, version, modified_by) VALUES ('note', 'n1', $1, 999999, 'alice')",
        [JSON.stringify({ item: 'nowhere', body: 'forged', created: 1, modified: 1 })],
      );
      const forged = (await l.admin.query("SELECT version, modified_by FROM citewise.objects WHERE uid = 'n1'"))
        .rows[0];
      expect(forged.modified_by).toBe('mallory');
      expect(Number(forged.version)).toBeLessThan(100);
      // Objects that break the rules of their kind: 3 of them, each refused by the replicas with a reason.
      await m.query("INSERT INTO citewise.objects (kind, uid, data) VALUES ('item', 'bad1', $1)", [
        JSON.stringify({
          key: 'has space',
          'csl.type': 'book',
          dateAdded: 1,
          trashed: false,
          source: null,
          tags: [],
          aliases: [],
          edited: [],
        }),
      ]);
      await m.query("INSERT INTO citewise.objects (kind, uid, data) VALUES ('item', 'bad2', $1)", [
        JSON.stringify({ key: 'ok2', 'csl.type': 'book', dateAdded: 'yesterday', trashed: 'no', tags: 'x' }),
      ]);
      await m.query("INSERT INTO citewise.objects (kind, uid, data) VALUES ('gadget', 'bad3', '{\"a\": 1}')");
      // And a good one after them, which must still arrive.
      await m.query("INSERT INTO citewise.objects (kind, uid, data) VALUES ('saved_search', 'ok', $1)", [
        JSON.stringify({ name: 'Fine', query: 'year:2000', sort: null, created: 1, modified: 1 }),
      ]);
      const b = await machine('b');
      machines.push(b);
      await l.member('bob', 'editor');
      await b.join(l, 'bob');
      const report = await b.engine.syncNow();
      expect(report.rejected.map((x) => x.uid).sort()).toEqual(['bad1', 'bad2', 'bad3']);
      expect(report.rejected.find((x) => x.uid === 'bad1')!.reason).toMatch(/key: not a usable citation key/);
      expect(report.rejected.find((x) => x.uid === 'bad3')!.reason).toMatch(/kind “gadget” is unknown/);
      expect((await b.lib.listing.listSavedSearches()).map((s) => s.name)).toEqual(['Fine']);
      // The note whose item never comes waits, and says for what.
      expect((await b.lib.sync.parked())[0]).toMatchObject({
        kind: 'note',
        uid: 'n1',
        reason: 'waiting for item nowhere',
      });
      expect(snapshot(b.file)).toMatchObject({ 'item book1': expect.anything() });
      expect(integrity(b.file)).toEqual([]);
    });

    it("ends a removed member's access at once, and lets admins alone change members", async () => {
      l = await lab(server);
      await l.member('alice', 'admin');
      await l.member('bob', 'editor');
      const b = await machine('b', { timing: { pollMs: 3_600_000, retryMinMs: 50, retryMaxMs: 200 } });
      machines.push(b);
      await b.join(l, 'bob');
      b.engine.start();
      await until('bob is live', async () => (await b.engine.status()).phase === 'idle');
      const bob = await as('bob');
      const alice = await as('alice');
      // An editor cannot change members; an admin can, and cannot remove the last admin.
      await expect(setMember(bob, 'bob', 'admin', null)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await setMember(alice, 'carol', 'reader', 'carol-password');
      expect((await listMembers(alice)).map((x) => [x.login, x.role])).toEqual([
        ['alice', 'admin'],
        ['bob', 'editor'],
        ['carol', 'reader'],
        ['postgres', 'admin'],
      ]);
      await removeMember(alice, 'postgres');
      await expect(removeMember(alice, 'alice')).rejects.toMatchObject({ code: 'INVALID_INPUT' });

      expect(await removeMember(alice, 'bob')).toBe(true);
      // At once: bob's open session is ended, his next statement fails, and he cannot come back.
      await expect(bob.query('SELECT 1')).rejects.toThrow();
      await until(
        "bob's sync notices",
        async () => ['error', 'offline'].includes((await b.engine.status()).phase),
        20_000,
      );
      await until(
        'bob is refused',
        async () => /no longer a member/.test((await b.engine.status()).message ?? ''),
        20_000,
      );
      const again = new pg.Client({
        host: '127.0.0.1',
        port: server.port,
        user: 'bob',
        password: 'pw-bob',
        database: l.database,
      });
      again.on('error', () => {});
      await expect(again.connect()).rejects.toMatchObject({ code: '42501' });
    });

    it('keeps the password in the keychain only: never in the library, its status or its errors', async () => {
      l = await lab(server);
      await l.member('dana', 'editor');
      const d = await machine('d');
      machines.push(d);
      const secret = 'pw-dana';
      await d.engine.connect(`postgresql://dana:${secret}@127.0.0.1:${server.port}/${l.database}`, null, {
        start: false,
      });
      const target = parseSyncUrl(l.url('dana')).target;
      expect(await d.secrets.get(accountOfTarget(target))).toBe(secret);
      await d.engine.syncNow();
      const status = await d.engine.status();
      expect(status.url).toBe(`postgresql://dana@127.0.0.1:${server.port}/${l.database}`);
      expect(JSON.stringify(status)).not.toContain(secret);
      await d.close();
      for (const f of [d.file, `${d.file}-wal`]) {
        try {
          expect(readFileSync(f).includes(Buffer.from(secret))).toBe(false);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
      // A wrong password: a sentence naming the server, not the password.
      const err = await connectTo(target, 'not-the-password').catch((e: unknown) => e as Error);
      expect(err).toMatchObject({ code: 'UNAUTHORIZED' });
      expect((err as Error).message).toMatch(/refused the user name or password for dana@127\.0\.0\.1/);
      expect((err as Error).message).not.toContain('not-the-password');
    });
  },
);

describe.skipIf(!postgresAvailable())('TLS with certificate verification', { timeout: 240_000 }, () => {
  let tls: TestPostgres;
  let dir: ReturnType<typeof tempDir>;
  let ca: string;
  let otherCa: string;

  beforeAll(async () => {
    dir = tempDir('citewise-tls-');
    const ssl = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir.path, stdio: 'ignore' });
    // A CA, and a server certificate it signs for 127.0.0.1 and localhost; a second CA that signs nothing.
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Citewise test CA',
    );
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'other.key',
      '-out',
      'other.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Other CA',
    );
    ssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      '/CN=127.0.0.1',
    );
    writeFileSync(join(dir.path, 'san.ext'), 'subjectAltName = IP:127.0.0.1, DNS:localhost\n');
    ssl(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-extfile',
      'san.ext',
    );
    execFileSync('chmod', ['600', join(dir.path, 'server.key')]);
    ca = join(dir.path, 'ca.pem');
    otherCa = join(dir.path, 'other.pem');
    // Also on 127.0.0.2, an address the certificate does not name.
    tls = await startPostgres({
      ssl: { cert: join(dir.path, 'server.pem'), key: join(dir.path, 'server.key') },
      settings: { listen_addresses: "'127.0.0.1,127.0.0.2'" },
    });
  }, 120_000);
  afterAll(async () => {
    await tls?.remove();
    dir?.remove();
  });

  const target = (query: string, host = '127.0.0.1') =>
    parseSyncUrl(`postgresql://postgres@${host}:${tls.port}/postgres?${query}`).target;

  it('connects when the certificate is signed by the CA given and names the host', async () => {
    const c = await connectTo(target(`sslmode=verify-full&sslrootcert=${encodeURIComponent(ca)}`), tls.password);
    expect(
      (await c.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).rows[0]!.ssl,
    ).toBe(true);
    await c.end();
  });

  it('refuses a certificate from an untrusted CA, or for another host, with a sentence saying what to do', async () => {
    await expect(
      connectTo(target(`sslmode=verify-full&sslrootcert=${encodeURIComponent(otherCa)}`), tls.password),
    ).rejects.toThrow(/certificate of 127\.0\.0\.1 could not be verified .*sslrootcert/);
    // No CA given: the system's CAs do not know this one.
    await expect(connectTo(target('sslmode=verify-full'), tls.password)).rejects.toMatchObject({
      code: 'SERVICE_ERROR',
    });
    // Another address than the certificate names: verify-full refuses, verify-ca (the CA only) accepts.
    await expect(
      connectTo(target(`sslmode=verify-full&sslrootcert=${encodeURIComponent(ca)}`, '127.0.0.2'), tls.password),
    ).rejects.toThrow(/ERR_TLS_CERT_ALTNAME_INVALID.*check the host name/);
    const c = await connectTo(
      target(`sslmode=verify-ca&sslrootcert=${encodeURIComponent(ca)}`, '127.0.0.2'),
      tls.password,
    );
    await c.end();
  });

  it('refuses sslmodes that fall back to plain text without saying so', () => {
    expect(() => target('sslmode=prefer')).toThrow(/refused, since they fall back to no encryption/);
    expect(() => target('sslmode=require&sslrootcert=/x')).toThrow(/sslrootcert needs sslmode=verify-ca/);
    expect(target('', 'db.example.org').sslmode).toBe('verify-full');
    expect(target('').sslmode).toBe('disable');
  });
});
