import type { ServerMigration } from './index';

// Members and their roles, managed from Citewise (Settings → Sharing, `citewise server members`):
// functions that run as the schema's owner (SECURITY DEFINER, with a fixed search_path) and first check
// that whoever calls them administers this library. Identifiers and literals reach dynamic SQL only
// through format('%I', '%L'). A password arrives as a SCRAM-SHA-256 verifier made by the client, so the
// plain password never reaches the server, its logs or its statistics.
export const m0002Members: ServerMigration = {
  version: 2,
  name: 'members',
  async up(db) {
    await db.query(`
      CREATE FUNCTION citewise.role_of(who text) RETURNS text STABLE LANGUAGE sql
        SET search_path = pg_catalog, citewise AS $fn$
        SELECT CASE
          WHEN NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = who) THEN NULL
          WHEN pg_has_role(who, l.admin_role, 'MEMBER') THEN 'admin'
          WHEN pg_has_role(who, l.editor_role, 'MEMBER') THEN 'editor'
          WHEN pg_has_role(who, l.reader_role, 'MEMBER') THEN 'reader'
        END FROM citewise.library l
      $fn$;

      CREATE FUNCTION citewise.my_role() RETURNS text STABLE LANGUAGE sql
        SET search_path = pg_catalog, citewise AS $fn$ SELECT citewise.role_of(session_user::text) $fn$;

      CREATE FUNCTION citewise.require_admin() RETURNS void STABLE LANGUAGE plpgsql
        SET search_path = pg_catalog, citewise AS $fn$
      BEGIN
        IF citewise.role_of(session_user::text) IS DISTINCT FROM 'admin' THEN
          RAISE EXCEPTION 'only an admin of this library can change its members' USING ERRCODE = '42501';
        END IF;
      END
      $fn$;

      CREATE FUNCTION citewise.admin_count_without(who text) RETURNS bigint STABLE LANGUAGE sql
        SET search_path = pg_catalog, citewise AS $fn$
        SELECT count(*) FROM citewise.members m WHERE m.login <> who AND citewise.role_of(m.login) = 'admin'
      $fn$;

      CREATE FUNCTION citewise.set_member(who text, new_role text, verifier text) RETURNS text
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, citewise AS $fn$
      DECLARE
        l citewise.library;
        existed boolean;
        target text;
      BEGIN
        PERFORM citewise.require_admin();
        IF who IS NULL OR who !~ '^[a-z_][a-z0-9_]{0,62}$' THEN
          RAISE EXCEPTION 'a member''s login is lower-case letters, digits and _ (at most 63), starting with a letter or _' USING ERRCODE = '22023';
        END IF;
        IF new_role IS NULL OR new_role NOT IN ('reader', 'editor', 'admin') THEN
          RAISE EXCEPTION 'a role is reader, editor or admin' USING ERRCODE = '22023';
        END IF;
        IF verifier IS NOT NULL AND verifier !~ '^SCRAM-SHA-256\\$[0-9]+:[A-Za-z0-9+/=]+\\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$' THEN
          RAISE EXCEPTION 'the password must arrive as a SCRAM-SHA-256 verifier' USING ERRCODE = '22023';
        END IF;
        SELECT * INTO l FROM citewise.library;
        IF who IN (l.reader_role, l.editor_role, l.admin_role) THEN
          RAISE EXCEPTION 'that name is one of the library''s own roles' USING ERRCODE = '22023';
        END IF;
        existed := EXISTS (SELECT 1 FROM pg_roles WHERE rolname = who);
        IF NOT existed THEN
          IF verifier IS NULL THEN
            RAISE EXCEPTION 'a new member needs a password' USING ERRCODE = '22023';
          END IF;
          EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L', who, verifier);
        ELSIF verifier IS NOT NULL THEN
          -- Only a member's password, never that of another role of the cluster (a superuser's…).
          IF citewise.role_of(who) IS NULL OR (SELECT rolsuper FROM pg_roles WHERE rolname = who) THEN
            RAISE EXCEPTION 'the password of % is not this library''s to change', who USING ERRCODE = '42501';
          END IF;
          EXECUTE format('ALTER ROLE %I PASSWORD %L', who, verifier);
        END IF;
        IF new_role <> 'admin' AND citewise.role_of(who) = 'admin' AND citewise.admin_count_without(who) = 0 THEN
          RAISE EXCEPTION 'the library needs at least one admin; make another member admin first' USING ERRCODE = '55000';
        END IF;
        FOREACH target IN ARRAY ARRAY[l.admin_role, l.editor_role, l.reader_role] LOOP
          IF pg_has_role(who, target, 'MEMBER') AND EXISTS (
               SELECT 1 FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid JOIN pg_roles u ON u.oid = m.member
               WHERE g.rolname = target AND u.rolname = who) THEN
            EXECUTE format('REVOKE %I FROM %I', target, who);
          END IF;
        END LOOP;
        EXECUTE format('GRANT %I TO %I', CASE new_role WHEN 'admin' THEN l.admin_role WHEN 'editor' THEN l.editor_role ELSE l.reader_role END, who);
        INSERT INTO citewise.members (login, role, added_by) VALUES (who, new_role, session_user)
          ON CONFLICT (login) DO UPDATE SET role = excluded.role;
        RETURN CASE WHEN existed THEN 'updated' ELSE 'created' END;
      END
      $fn$;

      CREATE FUNCTION citewise.remove_member(who text) RETURNS boolean
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, citewise AS $fn$
      DECLARE
        l citewise.library;
        target text;
        removed boolean := false;
      BEGIN
        PERFORM citewise.require_admin();
        SELECT * INTO l FROM citewise.library;
        IF citewise.role_of(who) = 'admin' AND citewise.admin_count_without(who) = 0 THEN
          RAISE EXCEPTION 'the library needs at least one admin; make another member admin first' USING ERRCODE = '55000';
        END IF;
        FOREACH target IN ARRAY ARRAY[l.admin_role, l.editor_role, l.reader_role] LOOP
          IF EXISTS (
               SELECT 1 FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid JOIN pg_roles u ON u.oid = m.member
               WHERE g.rolname = target AND u.rolname = who) THEN
            EXECUTE format('REVOKE %I FROM %I', target, who);
            removed := true;
          END IF;
        END LOOP;
        DELETE FROM citewise.members WHERE login = who;
        -- At once: the removed member's open sessions on this database end now.
        PERFORM pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE usename = who AND datname = current_database() AND pid <> pg_backend_pid();
        RETURN removed;
      END
      $fn$;

      REVOKE ALL ON FUNCTION citewise.set_member(text, text, text), citewise.remove_member(text) FROM PUBLIC;
    `);
    const roles = await db.query<{ reader_role: string; admin_role: string }>(
      'SELECT reader_role, admin_role FROM citewise.library',
    );
    const { reader_role: reader, admin_role: admin } = roles.rows[0]!;
    await db.query(GRANTS);
    await db.query('SELECT pg_temp.citewise_member_grants($1, $2)', [reader, admin]);
  },
};

const GRANTS = `
CREATE FUNCTION pg_temp.citewise_member_grants(reader text, admin text) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE format('GRANT EXECUTE ON FUNCTION citewise.role_of(text), citewise.my_role() TO %I', reader);
  EXECUTE format('GRANT EXECUTE ON FUNCTION citewise.set_member(text, text, text), citewise.remove_member(text) TO %I', admin);
  -- A session left idle inside a transaction would hold the version lock and stop every writer.
  EXECUTE format('ALTER DATABASE %I SET idle_in_transaction_session_timeout = %L', current_database(), '60s');
END
$fn$;
`;
