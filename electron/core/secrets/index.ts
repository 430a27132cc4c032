// Secure key storage for the core. The composition root builds one store with `createSecretStore`
// and looks keys up by `accountFor(serviceUrl)`; IPC handlers may set, clear and ask for status,
// and never return what `get` gives.
import { createKeytarSecretStore, type KeytarStoreOptions } from './keytar-store';
import { createMemorySecretStore } from './memory-store';
import type { SecretStore } from './secret-store';

export { accountFor } from './account';
export { createKeytarSecretStore, KEYCHAIN_SERVICE, type KeytarLike, type KeytarStoreOptions } from './keytar-store';
export { createMemorySecretStore, type MemoryStoreOptions } from './memory-store';
export {
  SecretStoreError,
  type SecretAccount,
  type SecretLocation,
  type SecretStatus,
  type SecretStore,
} from './secret-store';

export interface SecretStoreOptions extends KeytarStoreOptions {
  /**
   * 'keychain' (the default) is the OS keychain with its session-only fallback. 'session' keeps keys
   * in memory and says the keychain is off (a `--no-keychain` run, end-to-end tests). 'memory'
   * behaves like a working keychain without touching one (unit tests).
   */
  kind?: 'keychain' | 'session' | 'memory';
}

export function createSecretStore(options: SecretStoreOptions = {}): SecretStore {
  switch (options.kind ?? 'keychain') {
    case 'memory':
      return createMemorySecretStore();
    case 'session':
      return createMemorySecretStore({ as: 'session', why: 'the keychain is turned off for this run' });
    case 'keychain':
      return createKeytarSecretStore(options);
  }
}
