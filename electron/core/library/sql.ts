// A small tagged-template SQL helper: values always become bound parameters, identifiers only pass
// through `ident()` (checked against a strict pattern), and fragments compose. The handle types say
// whether a function may write: code that only reads takes a ReadDb, and a ReadDb cannot be passed
// where a WriteDb is needed.
import type Database from 'better-sqlite3';
import { appendAll } from '../../../shared/model/arrays';

export type SqlValue = string | number | bigint | Buffer | null;

export class SqlFragment {
  readonly text: string;
  readonly params: readonly SqlValue[];
  constructor(text: string, params: readonly SqlValue[]) {
    this.text = text;
    this.params = params;
  }
}

export class SqlIdentifier {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An identifier (table, column, index): checked, then quoted, so it can never carry SQL. */
export function ident(name: string, allowed?: readonly string[]): SqlIdentifier {
  if (!IDENT.test(name)) throw new Error(`Not a valid SQL identifier: ${JSON.stringify(name)}`);
  if (allowed && !allowed.includes(name))
    throw new Error(`Identifier ${JSON.stringify(name)} is not one of ${allowed.join(', ')}`);
  return new SqlIdentifier(name);
}

/** Trusted SQL text with no parameters, for keywords picked from a closed set (ASC/DESC, <, >). */
export function raw(text: 'ASC' | 'DESC' | '<' | '>' | '<=' | '>=' | '=' | 'AND' | 'OR' | ''): SqlFragment {
  return new SqlFragment(text, []);
}

export type SqlPart = SqlValue | SqlFragment | SqlIdentifier;

export function sql(strings: TemplateStringsArray, ...values: SqlPart[]): SqlFragment {
  let text = strings[0] ?? '';
  const params: SqlValue[] = [];
  values.forEach((v, i) => {
    if (v instanceof SqlFragment) {
      text += v.text;
      params.push(...v.params);
    } else if (v instanceof SqlIdentifier) {
      text += `"${v.name}"`;
    } else {
      text += '?';
      params.push(v);
    }
    text += strings[i + 1] ?? '';
  });
  return new SqlFragment(text, params);
}

export function joinSql(parts: readonly SqlFragment[], separator: string): SqlFragment {
  return new SqlFragment(
    parts.map((p) => p.text).join(separator),
    parts.flatMap((p) => p.params),
  );
}

export const EMPTY = new SqlFragment('', []);

/** SQLite's default limit on bound parameters is 32766; batches keep well below it. */
export const IN_BATCH = 500;

/** Runs `fn` once per batch of `values`, so a large IN list never exceeds the parameter limit. */
export function inBatches<T, R>(values: readonly T[], fn: (batch: T[]) => R[], size = IN_BATCH): R[] {
  const out: R[] = [];
  for (let i = 0; i < values.length; i += size) appendAll(out, fn(values.slice(i, i + size)));
  return out;
}

/** `(?, ?, ?)` for an IN list of values (one batch). */
export function inList(values: readonly SqlValue[]): SqlFragment {
  if (values.length === 0) return new SqlFragment('(NULL)', []);
  return new SqlFragment(`(${values.map(() => '?').join(', ')})`, values);
}

export interface ReadDb {
  readonly mode: 'read' | 'write';
  readonly raw: Database.Database;
  all<T>(q: SqlFragment): T[];
  get<T>(q: SqlFragment): T | undefined;
  /** The first column of each row. */
  pluck<T>(q: SqlFragment): T[];
}

export interface WriteDb extends ReadDb {
  readonly mode: 'write';
  run(q: SqlFragment): Database.RunResult;
  /**
   * Runs `fn` in a transaction that takes the write lock up front (BEGIN IMMEDIATE; nested calls
   * become savepoints). A deferred transaction that reads and then writes cannot wait for the lock
   * another connection holds (SQLite answers SQLITE_BUSY at once, busy timeout or not); one that
   * asks for it first waits like any other writer.
   */
  transaction<T>(fn: () => T): T;
}

function base(db: Database.Database) {
  // Statements are cached by text: the tagged templates produce a small set of distinct texts.
  const cache = new Map<string, Database.Statement>();
  const prepare = (text: string): Database.Statement => {
    let st = cache.get(text);
    if (!st) {
      st = db.prepare(text);
      if (cache.size > 500) cache.clear();
      cache.set(text, st);
    }
    return st;
  };
  return {
    raw: db,
    prepare,
    all<T>(q: SqlFragment): T[] {
      return prepare(q.text)
        .pluck(false)
        .all(...q.params) as T[];
    },
    get<T>(q: SqlFragment): T | undefined {
      return prepare(q.text)
        .pluck(false)
        .get(...q.params) as T | undefined;
    },
    pluck<T>(q: SqlFragment): T[] {
      return prepare(q.text)
        .pluck(true)
        .all(...q.params) as T[];
    },
  };
}

export function readHandle(db: Database.Database): ReadDb {
  const b = base(db);
  return { mode: 'read', raw: db, all: b.all, get: b.get, pluck: b.pluck };
}

export interface WriteHandleOptions {
  /** Called before a transaction begins (not before a nested one); may throw to hold the write back. */
  beforeWrite?: () => void;
}

export function writeHandle(db: Database.Database, options: WriteHandleOptions = {}): WriteDb {
  const b = base(db);
  return {
    mode: 'write',
    raw: db,
    all: b.all,
    get: b.get,
    pluck: b.pluck,
    run(q) {
      return b.prepare(q.text).run(...q.params);
    },
    transaction<T>(fn: () => T): T {
      if (!db.inTransaction) options.beforeWrite?.();
      return db.transaction(fn).immediate();
    },
  };
}
