// Members and roles of a shared library (`citewise server members …`, Settings → Sharing). The server
// decides: these call the schema's functions, which check that the caller is an admin. A password
// travels as a SCRAM-SHA-256 verifier computed here, so the server never sees it in plain text.
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { CoreError } from '../../errors';
import type { Queryable } from './migrations';
import { asServerError } from './migrate';

export const ROLES = ['reader', 'editor', 'admin'] as const;
export type MemberRole = (typeof ROLES)[number];

export interface Member {
  login: string;
  role: MemberRole;
  addedBy: string;
  addedAt: string;
}

const LOGIN = /^[a-z_][a-z0-9_]{0,62}$/;

export function checkLogin(login: string): void {
  if (!LOGIN.test(login))
    throw new CoreError(
      'INVALID_INPUT',
      `"${login.slice(0, 70)}" cannot be a member's login: use lower-case letters, digits and _ (at most 63), starting with a letter or _.`,
    );
}

/** The verifier PostgreSQL keeps for a SCRAM-SHA-256 password (RFC 5802, 7677; 4096 iterations as libpq). */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

/** A password for a new member: 24 characters from 62, about 143 bits. */
export function newPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(48);
  let out = '';
  for (let i = 0; out.length < 24 && i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < alphabet.length * 4) out += alphabet[b % alphabet.length];
  }
  return out.length === 24 ? out : newPassword();
}

export async function listMembers(db: Queryable): Promise<Member[]> {
  try {
    const r = await db.query<{ login: string; role: MemberRole; added_by: string; added_at: Date }>(
      'SELECT login, coalesce(citewise.role_of(login), role) AS role, added_by, added_at FROM citewise.members ORDER BY login',
    );
    return r.rows.map((m) => ({
      login: m.login,
      role: m.role,
      addedBy: m.added_by,
      addedAt: new Date(m.added_at).toISOString(),
    }));
  } catch (err) {
    throw asServerError(err);
  }
}

/** The caller's role in the library, or null when they are not a member. */
export async function myRole(db: Queryable): Promise<MemberRole | null> {
  try {
    const r = await db.query<{ role: MemberRole | null }>('SELECT citewise.my_role() AS role');
    return r.rows[0]?.role ?? null;
  } catch (err) {
    const code = (err as { code?: string }).code;
    // Without the reader role the schema's functions cannot even be called.
    if (code === '42501') return null;
    throw asServerError(err);
  }
}

/**
 * Adds a member with a role, or changes their role; a password (when given) becomes the login's.
 * A new login needs one. 'created' or 'updated'.
 */
export async function setMember(
  db: Queryable,
  login: string,
  role: MemberRole,
  password: string | null,
): Promise<'created' | 'updated'> {
  checkLogin(login);
  if (!ROLES.includes(role)) throw new CoreError('INVALID_INPUT', 'A role is reader, editor or admin.');
  try {
    const r = await db.query<{ result: 'created' | 'updated' }>('SELECT citewise.set_member($1, $2, $3) AS result', [
      login,
      role,
      password === null ? null : scramVerifier(password),
    ]);
    return r.rows[0]!.result;
  } catch (err) {
    throw memberError(err);
  }
}

/** Removes a member: their roles are revoked and their open sessions ended, at once. */
export async function removeMember(db: Queryable, login: string): Promise<boolean> {
  checkLogin(login);
  try {
    const r = await db.query<{ removed: boolean }>('SELECT citewise.remove_member($1) AS removed', [login]);
    return r.rows[0]!.removed;
  } catch (err) {
    throw memberError(err);
  }
}

function memberError(err: unknown): Error {
  const e = err as { code?: string; message?: string };
  if (e.code === '42501') return new CoreError('FORBIDDEN', `The server refused: ${e.message ?? 'permission denied'}.`);
  if (e.code === '22023' || e.code === '55000')
    return new CoreError('INVALID_INPUT', `The server refused: ${e.message}.`);
  return asServerError(err);
}
