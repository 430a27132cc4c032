// The key in use and the service address, for the core only. The key comes from CITEWISE_API_KEY
// (one run, never stored) or from the SecretStore under the account of the current base URL; it is
// cached in memory so that a bulk fetch does not ask the keychain once per request. SecretStore
// errors are CoreErrors with fixed, key-free text, so they cross IPC as they are.
import type { ServiceConfig, ServiceKeyStatus, ServiceUrlSource } from '../../../shared/ipc';
import { DEFAULT_SERVICE_URL } from '../../../shared/service';
import { CoreError } from '../errors';
import { accountFor, type SecretStatus, type SecretStore } from '../secrets';

export function resolveServiceUrl(override: string | undefined, setting: string | null | undefined): ServiceConfig {
  const pick = (serviceUrl: string, source: ServiceUrlSource): ServiceConfig => ({
    serviceUrl: serviceUrl.replace(/\/+$/, ''),
    source,
    defaultUrl: DEFAULT_SERVICE_URL,
  });
  if (override) return pick(override, 'command-line');
  if (setting) return pick(setting, 'setting');
  return pick(DEFAULT_SERVICE_URL, 'default');
}

// API keys are printable ASCII without spaces; anything else cannot go into an HTTP header, and
// usually means a key copied with part of the surrounding text.
const KEY_SHAPE = /^[\x21-\x7e]+$/;

function checkKeyShape(key: string, from: string): void {
  if (!KEY_SHAPE.test(key)) {
    throw new CoreError(
      'INVALID_INPUT',
      `The API key ${from} contains spaces or characters an API key never has; check that it was copied whole and alone.`,
    );
  }
}

export class ServiceKeys {
  readonly #secrets: SecretStore;
  readonly #baseUrl: () => string;
  readonly #envKey: string | undefined;
  readonly #cache = new Map<string, string | null>();

  constructor(options: { secrets: SecretStore; baseUrl: () => string; envKey?: string | undefined }) {
    this.#secrets = options.secrets;
    this.#baseUrl = options.baseUrl;
    const env = options.envKey?.trim();
    this.#envKey = env ? env : undefined;
  }

  /** The key to send, or null. Core-only. */
  async get(): Promise<string | null> {
    if (this.#envKey) {
      checkKeyShape(this.#envKey, 'in CITEWISE_API_KEY');
      return this.#envKey;
    }
    const account = accountFor(this.#baseUrl());
    if (this.#cache.has(account)) return this.#cache.get(account) ?? null;
    const key = await this.#secrets.get(account);
    this.#cache.set(account, key);
    return key;
  }

  async set(key: string): Promise<ServiceKeyStatus> {
    const trimmed = key.trim();
    checkKeyShape(trimmed, 'given');
    const account = accountFor(this.#baseUrl());
    const status = await this.#secrets.set(account, trimmed);
    this.#cache.set(account, trimmed);
    return this.#describe(status);
  }

  async clear(): Promise<ServiceKeyStatus> {
    const account = accountFor(this.#baseUrl());
    try {
      return this.#describe(await this.#secrets.clear(account));
    } finally {
      this.#cache.delete(account);
    }
  }

  async status(): Promise<ServiceKeyStatus> {
    return this.#describe(await this.#secrets.status(accountFor(this.#baseUrl())));
  }

  #describe(status: SecretStatus): ServiceKeyStatus {
    const out: ServiceKeyStatus = {
      stored: status.stored,
      where: status.where,
      keychainAvailable: status.keychainAvailable,
    };
    if (status.reason !== undefined) out.reason = status.reason;
    // CITEWISE_API_KEY wins for this run; the stored key (if any) is untouched.
    if (this.#envKey) {
      out.where = 'environment';
      out.reason = 'The key comes from CITEWISE_API_KEY for this run only; it is not stored.';
    }
    return out;
  }
}
