// The SecretStore contract shared by the keychain store and the in-memory one.
// The key may only leave a store through `get`, which the core calls and IPC never exposes:
// errors, statuses and any serialisation of a store carry no key and no raw keychain text.

import { CoreError } from '../errors';

declare const accountBrand: unique symbol;

/**
 * A normalised service base URL. Only `accountFor` makes one, so that two spellings of the same
 * URL ("HTTPS://Api.Example/" and "https://api.example") share one key.
 */
export type SecretAccount = string & { readonly [accountBrand]: true };

/** Where a stored key lives; 'none' when there is no key. */
export type SecretLocation = 'keychain' | 'session' | 'none';

/** What the renderer may learn about a key: never the key itself. */
export interface SecretStatus {
  stored: boolean;
  where: SecretLocation;
  keychainAvailable: boolean;
  /** Why the keychain is not used, in words fit for the user; present when `keychainAvailable` is false. */
  reason?: string;
}

export interface SecretStore {
  /** Core-only: the key for `account`, or null. Never wire this to IPC. */
  get(account: SecretAccount): Promise<string | null>;
  /** Stores the key, in the keychain when it can and for this session only when it cannot; says which. */
  set(account: SecretAccount, secret: string): Promise<SecretStatus>;
  /** Forgets the key everywhere it might be. Throws only when a keychain copy may have survived. */
  clear(account: SecretAccount): Promise<SecretStatus>;
  status(account: SecretAccount): Promise<SecretStatus>;
}

/**
 * The only error a store throws. Its message is written here from fixed text, never from the
 * caller's input or the keychain's own message, so it is safe to log and to show.
 * `code` is from the IPC error set so a handler can pass it on as is.
 */
/** A CoreError, so its (key-free) message crosses IPC as is instead of becoming a generic INTERNAL. */
export class SecretStoreError extends CoreError {
  declare readonly code: 'INVALID_INPUT' | 'INTERNAL';

  constructor(code: 'INVALID_INPUT' | 'INTERNAL', message: string) {
    super(code, message);
    this.name = 'SecretStoreError';
  }
}

// Keychains differ in what they accept (Windows caps a credential at 2560 bytes) and libsecret
// stores C strings, so a NUL would silently cut the key short: refuse such keys up front.
const MAX_SECRET_BYTES = 2048;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Refuses a key no keychain would store faithfully; the message never quotes the key. */
export function checkSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret.trim() === '') {
    throw new SecretStoreError('INVALID_INPUT', 'The API key is empty.');
  }
  if (CONTROL_CHARS.test(secret)) {
    throw new SecretStoreError('INVALID_INPUT', 'The API key contains a line break or another control character.');
  }
  if (Buffer.byteLength(secret, 'utf8') > MAX_SECRET_BYTES) {
    throw new SecretStoreError('INVALID_INPUT', `The API key is longer than ${MAX_SECRET_BYTES} bytes.`);
  }
}

export function checkAccount(account: unknown): asserts account is SecretAccount {
  if (typeof account !== 'string' || account === '') {
    throw new SecretStoreError('INVALID_INPUT', 'No service URL was given for the API key.');
  }
}

/**
 * Makes a store opaque to JSON.stringify, String() and util.inspect (console.log, test diffs, crash
 * reports). Its state lives in closures, so this is belt and braces against a future field.
 */
export function opaque<T extends object>(store: T, label: string): Readonly<T> {
  const text = `[${label}]`;
  Object.defineProperties(store, {
    toJSON: { value: () => text },
    toString: { value: () => text },
    [Symbol.for('nodejs.util.inspect.custom')]: { value: () => text },
  });
  return Object.freeze(store);
}

/** The reason shown when keys are kept for this session only. */
export function sessionOnlyReason(why: string): string {
  return `No OS keychain is available (${why}); the key is kept for this session only and will be asked for again next time.`;
}
