import { SecretStoreError, type SecretAccount } from './secret-store';

/**
 * The keychain account for a service base URL: scheme, host, port and path, lower-cased where
 * URLs are case-insensitive, without a trailing slash. Query, fragment and user info are not
 * part of a service's identity, and may carry credentials that must not become an account name.
 * Errors never quote the URL, for the same reason.
 */
export function accountFor(baseUrl: string): SecretAccount {
  let url: URL;
  try {
    url = new URL(String(baseUrl).trim());
  } catch {
    throw new SecretStoreError('INVALID_INPUT', 'The service URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SecretStoreError('INVALID_INPUT', 'The service URL must start with https:// or http://.');
  }
  if (url.username !== '' || url.password !== '') {
    throw new SecretStoreError('INVALID_INPUT', 'The service URL must not contain a user name or password.');
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}` as SecretAccount;
}
