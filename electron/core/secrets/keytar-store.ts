import { classifyFailure, describeFailure, KeychainTimeout, type KeychainFailure } from './keychain-errors';
import {
  checkAccount,
  checkSecret,
  opaque,
  SecretStoreError,
  sessionOnlyReason,
  type SecretAccount,
  type SecretStatus,
  type SecretStore,
} from './secret-store';

/** The part of keytar the store uses, so tests can hand in a fake. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeytarStoreOptions {
  /** The keychain service name; tests may pick their own. */
  service?: string;
  /** Loads keytar; the default imports it lazily so a missing addon or libsecret degrades instead of crashing. */
  loadKeytar?: () => Promise<KeytarLike>;
  /** How long the first contact may take before the keychain counts as unavailable. */
  probeTimeoutMs?: number;
  /** How long a read, write or delete may take; long, because the OS may be asking the user to unlock. */
  operationTimeoutMs?: number;
  /** Told once when the store falls back to session-only keys, with the sanitised reason. */
  onFallback?: (reason: string) => void;
}

export const KEYCHAIN_SERVICE = 'Citewise';
// Reading an account that never exists shows whether the keychain answers, without touching a key.
const PROBE_ACCOUNT = 'citewise:keychain-probe';

type Backend =
  | { kind: 'keychain'; keytar: KeytarLike }
  // `keytar` is kept when the keychain answered once and then failed (say, locked), so that
  // `clear` can still try to remove a copy stored earlier.
  | { kind: 'session'; reason: string; keytar?: KeytarLike };
type SessionBackend = Extract<Backend, { kind: 'session' }>;

async function importKeytar(): Promise<KeytarLike> {
  const mod: { default?: KeytarLike } & Partial<KeytarLike> = await import('keytar');
  return mod.default ?? (mod as KeytarLike);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  // A keychain call cannot be cancelled: on timeout it is abandoned, and the race still absorbs
  // its late result or rejection.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KeychainTimeout()), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Keys in the OS keychain through keytar: service "Citewise", one account per service base URL.
 *
 * Fails closed: if keytar cannot load, the keychain does not answer, or it refuses a key, the store
 * switches for the rest of the session to keys held in memory only, and `status` says so and why.
 * Nothing is ever written to disk by this module, in any form.
 */
export function createKeytarSecretStore(options: KeytarStoreOptions = {}): SecretStore {
  const service = options.service ?? KEYCHAIN_SERVICE;
  const load = options.loadKeytar ?? importKeytar;
  const probeTimeoutMs = options.probeTimeoutMs ?? 10_000;
  const operationTimeoutMs = options.operationTimeoutMs ?? 60_000;
  const session = new Map<SecretAccount, string>();
  let backend: Backend | undefined;
  let connecting: Promise<Backend> | undefined;
  // Calls run one at a time, so a clear issued after a set cannot overtake it in the keychain.
  let queue: Promise<unknown> = Promise.resolve();

  const fallBack = (failure: KeychainFailure, reachable?: KeytarLike): SessionBackend => {
    const reason = sessionOnlyReason(describeFailure(failure));
    // A keychain that timed out or vanished would only make `clear` wait again.
    const keep = reachable !== undefined && failure !== 'timeout' && failure !== 'no-service';
    const fallen: SessionBackend = keep ? { kind: 'session', reason, keytar: reachable } : { kind: 'session', reason };
    backend = fallen;
    options.onFallback?.(reason);
    return fallen;
  };

  const connect = async (): Promise<Backend> => {
    let keytar: KeytarLike;
    try {
      keytar = await withTimeout(load(), probeTimeoutMs);
    } catch (err) {
      return fallBack(err instanceof KeychainTimeout ? 'timeout' : 'no-library');
    }
    try {
      await withTimeout(keytar.getPassword(service, PROBE_ACCOUNT), probeTimeoutMs);
    } catch (err) {
      return fallBack(classifyFailure(err));
    }
    backend = { kind: 'keychain', keytar };
    return backend;
  };

  const current = async (): Promise<Backend> => backend ?? (connecting ??= connect());

  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => {});
    return result;
  };

  const sessionStatus = (account: SecretAccount, reason: string): SecretStatus =>
    session.has(account)
      ? { stored: true, where: 'session', keychainAvailable: false, reason }
      : { stored: false, where: 'none', keychainAvailable: false, reason };

  const status = async (account: SecretAccount): Promise<SecretStatus> => {
    const b = await current();
    if (b.kind === 'session') return sessionStatus(account, b.reason);
    try {
      const found = await withTimeout(b.keytar.getPassword(service, account), operationTimeoutMs);
      return found === null
        ? { stored: false, where: 'none', keychainAvailable: true }
        : { stored: true, where: 'keychain', keychainAvailable: true };
    } catch (err) {
      return sessionStatus(account, fallBack(classifyFailure(err), b.keytar).reason);
    }
  };

  return opaque(
    {
      async get(account: SecretAccount) {
        checkAccount(account);
        return serial(async () => {
          const kept = session.get(account);
          if (kept !== undefined) return kept;
          const b = await current();
          if (b.kind === 'session') return null;
          try {
            return await withTimeout(b.keytar.getPassword(service, account), operationTimeoutMs);
          } catch (err) {
            fallBack(classifyFailure(err), b.keytar);
            return null;
          }
        });
      },

      async set(account: SecretAccount, secret: string) {
        checkAccount(account);
        checkSecret(secret);
        return serial(async () => {
          const b = await current();
          if (b.kind === 'keychain') {
            try {
              await withTimeout(b.keytar.setPassword(service, account, secret), operationTimeoutMs);
              session.delete(account);
              return { stored: true, where: 'keychain', keychainAvailable: true } satisfies SecretStatus;
            } catch (err) {
              fallBack(classifyFailure(err), b.keytar);
            }
          }
          session.set(account, secret);
          return status(account);
        });
      },

      async clear(account: SecretAccount) {
        checkAccount(account);
        return serial(async () => {
          session.delete(account);
          const b = await current();
          if (b.keytar !== undefined) {
            try {
              await withTimeout(b.keytar.deletePassword(service, account), operationTimeoutMs);
            } catch (err) {
              const failure = classifyFailure(err);
              if (b.kind === 'keychain') fallBack(failure, b.keytar);
              throw new SecretStoreError(
                'INTERNAL',
                `The API key could not be removed from the OS keychain (${describeFailure(failure)}); it may still be stored there.`,
              );
            }
          }
          return status(account);
        });
      },

      async status(account: SecretAccount) {
        checkAccount(account);
        return serial(() => status(account));
      },
    },
    'SecretStore (OS keychain)',
  );
}
