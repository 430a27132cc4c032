// scripts/test-keychain.sh says which keychain a pass has; without it these tests skip, so that a
// bare `vitest run` never touches the keychain of the person running it.
import { realpathSync } from 'node:fs';
import { expect } from 'vitest';

export const expected = process.env.CITEWISE_KEYCHAIN_EXPECT as 'real' | 'none' | undefined;
const sandbox = process.env.CITEWISE_KEYCHAIN_SANDBOX;

/** Refuses to go on unless every place a keyring or a leak could live is inside the script's sandbox. */
export function assertSandboxed(): void {
  expect(sandbox, 'CITEWISE_KEYCHAIN_SANDBOX is set by scripts/test-keychain.sh').toBeTruthy();
  const root = realpathSync(sandbox!);
  for (const name of ['HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'XDG_RUNTIME_DIR', 'TMPDIR', 'CITEWISE_DATA_DIR']) {
    const dir = process.env[name];
    expect(dir, `${name} is set`).toBeTruthy();
    expect(realpathSync(dir!).startsWith(`${root}/`), `${name} is inside the sandbox`).toBe(true);
  }
}
