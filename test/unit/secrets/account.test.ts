import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountFor, SecretStoreError } from '../../../electron/core/secrets';

describe('accountFor', () => {
  it.each([
    ['https://api.scite.ai', 'https://api.scite.ai'],
    ['https://api.scite.ai/', 'https://api.scite.ai'],
    ['HTTPS://API.Scite.AI///', 'https://api.scite.ai'],
    ['  https://api.scite.ai/  ', 'https://api.scite.ai'],
    ['https://api.scite.ai:443/', 'https://api.scite.ai'],
    ['http://127.0.0.1:8787/', 'http://127.0.0.1:8787'],
    ['http://[::1]:8787/v1/', 'http://[::1]:8787/v1'],
    ['https://example.org/Scite/API/', 'https://example.org/Scite/API'],
    ['https://example.org/a/./b/../c/', 'https://example.org/a/c'],
    ['https://example.org/v1?api_key=abc#top', 'https://example.org/v1'],
  ])('%s is account %s', (url, account) => {
    expect(accountFor(url)).toBe(account);
  });

  it('keeps different services apart', () => {
    const accounts = [
      'https://api.scite.ai',
      'http://api.scite.ai',
      'https://api.scite.ai:8443',
      'https://api.scite.ai/v2',
      'http://127.0.0.1:8787',
    ].map(accountFor);
    expect(new Set(accounts).size).toBe(accounts.length);
  });

  it.each([['not a url'], [''], ['ftp://example.org'], ['file:///etc/passwd'], ['javascript:alert(1)']])(
    'refuses %j',
    (url) => {
      expect(() => accountFor(url)).toThrow(SecretStoreError);
    },
  );

  it('refuses user info, without quoting the URL that carries it', () => {
    const err = (() => {
      try {
        accountFor('https://me:hunter2@api.scite.ai/');
      } catch (e) {
        return e as SecretStoreError;
      }
      throw new Error('accepted a URL with a password');
    })();
    expect(err.code).toBe('INVALID_INPUT');
    expect(`${err.message} ${err.stack}`).not.toContain('hunter2');
  });

  it('is idempotent and case-insensitive in scheme and host', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        const account = accountFor(url);
        expect(accountFor(account)).toBe(account);
        const u = new URL(url);
        const shouted = url.replace(u.protocol, u.protocol.toUpperCase()).replace(u.hostname, u.hostname.toUpperCase());
        expect(accountFor(shouted)).toBe(account);
        expect(account.endsWith('/')).toBe(false);
      }),
    );
  });
});
