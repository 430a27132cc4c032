import {
  checkAccount,
  checkSecret,
  opaque,
  sessionOnlyReason,
  type SecretAccount,
  type SecretStatus,
  type SecretStore,
} from './secret-store';

export interface MemoryStoreOptions {
  /**
   * What the store reports itself as. 'keychain' (the default) stands in for a working keychain in
   * tests; 'session' is the fail-closed fallback and reports `reason` to the user.
   */
  as?: 'keychain' | 'session';
  /** For 'session': why there is no keychain, completed into a full sentence by `sessionOnlyReason`. */
  why?: string;
}

/** Keys in process memory only: nothing is ever written anywhere. */
export function createMemorySecretStore(options: MemoryStoreOptions = {}): SecretStore {
  const as = options.as ?? 'keychain';
  const keys = new Map<SecretAccount, string>();
  const reason = as === 'session' ? sessionOnlyReason(options.why ?? 'the keychain is turned off') : undefined;

  const status = (account: SecretAccount): SecretStatus => {
    const stored = keys.has(account);
    const base = { stored, where: stored ? as : ('none' as const), keychainAvailable: as === 'keychain' };
    return reason === undefined ? base : { ...base, reason };
  };

  return opaque(
    {
      async get(account: SecretAccount) {
        checkAccount(account);
        return keys.get(account) ?? null;
      },
      async set(account: SecretAccount, secret: string) {
        checkAccount(account);
        checkSecret(secret);
        keys.set(account, secret);
        return status(account);
      },
      async clear(account: SecretAccount) {
        checkAccount(account);
        keys.delete(account);
        return status(account);
      },
      async status(account: SecretAccount) {
        checkAccount(account);
        return status(account);
      },
    },
    as === 'session' ? 'SecretStore (session only)' : 'SecretStore (memory)',
  );
}
