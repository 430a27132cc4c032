// What a member is told when the server refuses them: PostgreSQL's errors as the node-postgres driver
// raises them (code and message as the server sends them), turned into sentences saying what to do.
import { describe, expect, it } from 'vitest';
import { connectionError, parseSyncUrl } from '../../../electron/core/sync/connection';

const target = parseSyncUrl('postgresql://bob@127.0.0.1:5432/baker').target;

describe('errors of a shared library connection', () => {
  it('says a removed member is no longer a member (CONNECT revoked), not "permission denied"', () => {
    const e = connectionError({ code: '42501', message: 'permission denied for database "baker"' }, target);
    expect(e.code).toBe('FORBIDDEN');
    expect(e.message).toMatch(/^bob is no longer a member of the library at .*baker \(or never was\)/);
    expect(e.message).not.toContain('permission denied');
  });

  it("keeps other refusals' own words, and tells a wrong password from an unknown database", () => {
    const table = connectionError({ code: '42501', message: 'permission denied for table objects' }, target);
    expect(table.code).toBe('FORBIDDEN');
    expect(table.message).toContain('permission denied for table objects');
    expect(connectionError({ code: '28P01', message: 'password authentication failed' }, target).code).toBe(
      'UNAUTHORIZED',
    );
    expect(connectionError({ code: '3D000', message: 'database "baker" does not exist' }, target).message).toBe(
      'The server has no database "baker".',
    );
  });
});
