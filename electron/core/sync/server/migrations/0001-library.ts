import type { ServerMigration } from './index';

// The shared library on the server: one library per database, in the schema `citewise`.
//
// - objects: every shared object (an item, a note, a collection…) as one row: its kind, its uid (made
//   by the client that created it), the version the server gave its last write, a tombstone flag and
//   the object's fields as a JSON object. Versions come from one sequence, stamped by a trigger that
//   first takes a transaction-wide advisory lock: writers commit one after another, so every version
//   below a committed one is committed too, and a client that pulled up to version N has seen
//   everything up to N. Nothing is ever deleted (a delete is a tombstone with its own version).
// - blobs / blob_chunks: attachment files, content-addressed (SHA-256), in chunks of at most 1 MiB,
//   so an upload or a download resumes at the chunk where it stopped.
// - members: who was given which role, for the Sharing settings; the authority is PostgreSQL's own
//   role membership (grants and row-level security below), never this table.
//
// Roles: three group roles per library, reader ⊂ editor ⊂ admin. Readers may only SELECT; editors may
// also INSERT and UPDATE objects and upload blobs; admins may also manage members through the
// SECURITY DEFINER functions of this schema. Row-level security says the same again on every table,
// so a grant given by mistake does not open writes. No role may DELETE.
export const m0001Library: ServerMigration = {
  version: 1,
  name: 'library',
  async up(db, ctx) {
    await db.query(`
      CREATE TABLE citewise.library (
        singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        id          text NOT NULL CHECK (id ~ '^[0-9a-f]{12}$'),
        name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        reader_role text NOT NULL,
        editor_role text NOT NULL,
        admin_role  text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      );

      CREATE SEQUENCE citewise.version_seq AS bigint;

      CREATE TABLE citewise.objects (
        kind        text NOT NULL CHECK (kind ~ '^[a-z][a-z_]{0,31}$'),
        uid         text NOT NULL CHECK (length(uid) BETWEEN 1 AND 300),
        version     bigint NOT NULL,
        deleted     boolean NOT NULL DEFAULT false,
        data        jsonb,
        modified_by text NOT NULL,
        modified_at timestamptz NOT NULL,
        PRIMARY KEY (kind, uid),
        CHECK ((deleted AND data IS NULL) OR (NOT deleted AND jsonb_typeof(data) = 'object'))
      );
      CREATE UNIQUE INDEX objects_by_version ON citewise.objects (version);

      -- The stamp: a version from the sequence, taken under a lock held until commit (see above),
      -- who wrote it and when (the server's clock; clients' clocks decide nothing). A row's kind and
      -- uid never change, and an object's fields are capped (4 MiB of JSON text).
      CREATE FUNCTION citewise.stamp() RETURNS trigger LANGUAGE plpgsql
        SET search_path = pg_catalog, citewise AS $fn$
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext('citewise.objects'));
        IF TG_OP = 'UPDATE' AND (NEW.kind IS DISTINCT FROM OLD.kind OR NEW.uid IS DISTINCT FROM OLD.uid) THEN
          RAISE EXCEPTION 'an object''s kind and uid never change' USING ERRCODE = '23514';
        END IF;
        IF NEW.deleted THEN
          NEW.data := NULL;
        ELSIF octet_length(NEW.data::text) > 4194304 THEN
          RAISE EXCEPTION 'object %/% is larger than 4 MiB', NEW.kind, left(NEW.uid, 40) USING ERRCODE = '54000';
        END IF;
        NEW.version := nextval('citewise.version_seq');
        NEW.modified_by := session_user;
        NEW.modified_at := now();
        RETURN NEW;
      END
      $fn$;
      CREATE TRIGGER objects_stamp BEFORE INSERT OR UPDATE ON citewise.objects
        FOR EACH ROW EXECUTE FUNCTION citewise.stamp();

      -- Live updates: one notification per statement, at commit, carrying the highest version written.
      CREATE FUNCTION citewise.notify_changes() RETURNS trigger LANGUAGE plpgsql
        SET search_path = pg_catalog, citewise AS $fn$
      BEGIN
        PERFORM pg_notify('citewise_changes', (SELECT coalesce(max(version), 0)::text FROM changed));
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER objects_notify_insert AFTER INSERT ON citewise.objects
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION citewise.notify_changes();
      CREATE TRIGGER objects_notify_update AFTER UPDATE ON citewise.objects
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION citewise.notify_changes();

      CREATE TABLE citewise.blobs (
        sha256     text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        size       bigint NOT NULL CHECK (size >= 0),
        chunk_size integer NOT NULL CHECK (chunk_size BETWEEN 1 AND 1048576),
        complete   boolean NOT NULL DEFAULT false,
        added_by   text NOT NULL DEFAULT session_user,
        added_at   timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE citewise.blob_chunks (
        sha256 text NOT NULL REFERENCES citewise.blobs (sha256),
        idx    integer NOT NULL CHECK (idx >= 0),
        data   bytea NOT NULL CHECK (octet_length(data) BETWEEN 1 AND 1048576),
        PRIMARY KEY (sha256, idx)
      );

      CREATE TABLE citewise.members (
        login      text PRIMARY KEY,
        role       text NOT NULL CHECK (role IN ('reader', 'editor', 'admin')),
        added_by   text NOT NULL DEFAULT session_user,
        added_at   timestamptz NOT NULL DEFAULT now()
      );
    `);
    // Identifiers cannot be bound parameters: the roles' names are made from the library id (12 hex
    // digits, checked by the table) with format('%I'), inside a function that takes the id as a parameter.
    await db.query(SETUP);
    await db.query('SELECT pg_temp.citewise_setup($1, $2)', [ctx.libraryId, ctx.libraryName]);
  },
};

const SETUP = `
CREATE FUNCTION pg_temp.citewise_setup(lib text, lib_name text) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  reader text := 'citewise_' || lib || '_reader';
  editor text := 'citewise_' || lib || '_editor';
  admin  text := 'citewise_' || lib || '_admin';
  r text;
BEGIN
  INSERT INTO citewise.library (id, name, reader_role, editor_role, admin_role) VALUES (lib, lib_name, reader, editor, admin);
  FOREACH r IN ARRAY ARRAY[reader, editor, admin] LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
      EXECUTE format('CREATE ROLE %I NOLOGIN', r);
    END IF;
  END LOOP;
  EXECUTE format('GRANT %I TO %I', reader, editor);
  EXECUTE format('GRANT %I TO %I', editor, admin);
  -- The one who set the server up administers it.
  EXECUTE format('GRANT %I TO %I', admin, session_user);
  INSERT INTO citewise.members (login, role) VALUES (session_user, 'admin');

  -- Nobody else may connect, or see the schema.
  EXECUTE format('REVOKE CONNECT, TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), reader);
  REVOKE ALL ON SCHEMA citewise FROM PUBLIC;
  REVOKE ALL ON ALL FUNCTIONS IN SCHEMA citewise FROM PUBLIC;
  EXECUTE format('GRANT USAGE ON SCHEMA citewise TO %I', reader);
  EXECUTE format('GRANT SELECT ON citewise.schema_migrations, citewise.library, citewise.objects, citewise.blobs, citewise.blob_chunks, citewise.members TO %I', reader);
  EXECUTE format('GRANT INSERT, UPDATE ON citewise.objects TO %I', editor);
  EXECUTE format('GRANT INSERT, UPDATE ON citewise.blobs TO %I', editor);
  EXECUTE format('GRANT INSERT ON citewise.blob_chunks TO %I', editor);
  EXECUTE format('GRANT USAGE ON SEQUENCE citewise.version_seq TO %I', editor);

  -- Row-level security, forced on the owner too: reading takes the reader role, writing the editor
  -- role, checked at every statement, so a member removed mid-session loses access at their next one.
  ALTER TABLE citewise.objects ENABLE ROW LEVEL SECURITY;
  ALTER TABLE citewise.objects FORCE ROW LEVEL SECURITY;
  ALTER TABLE citewise.blobs ENABLE ROW LEVEL SECURITY;
  ALTER TABLE citewise.blobs FORCE ROW LEVEL SECURITY;
  ALTER TABLE citewise.blob_chunks ENABLE ROW LEVEL SECURITY;
  ALTER TABLE citewise.blob_chunks FORCE ROW LEVEL SECURITY;
  ALTER TABLE citewise.members ENABLE ROW LEVEL SECURITY;
  ALTER TABLE citewise.members FORCE ROW LEVEL SECURITY;
  ALTER TABLE citewise.library ENABLE ROW LEVEL SECURITY;
  ALTER TABLE citewise.library FORCE ROW LEVEL SECURITY;
  FOREACH r IN ARRAY ARRAY['objects', 'blobs', 'blob_chunks', 'members', 'library'] LOOP
    EXECUTE format('CREATE POLICY members_read ON citewise.%I FOR SELECT USING (pg_has_role(current_user, %L, ''MEMBER''))', r, reader);
  END LOOP;
  FOREACH r IN ARRAY ARRAY['objects', 'blobs', 'blob_chunks'] LOOP
    EXECUTE format('CREATE POLICY editors_insert ON citewise.%I FOR INSERT WITH CHECK (pg_has_role(current_user, %L, ''MEMBER''))', r, editor);
  END LOOP;
  FOREACH r IN ARRAY ARRAY['objects', 'blobs'] LOOP
    EXECUTE format('CREATE POLICY editors_update ON citewise.%I FOR UPDATE USING (pg_has_role(current_user, %L, ''MEMBER'')) WITH CHECK (pg_has_role(current_user, %L, ''MEMBER''))', r, editor, editor);
  END LOOP;
  -- The member functions below run as their owner (SECURITY DEFINER) and change the members table.
  EXECUTE format('CREATE POLICY owner_all ON citewise.members FOR ALL TO %I USING (true) WITH CHECK (true)', current_user);
END
$fn$;
`;
