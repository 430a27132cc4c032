// Proves that lint enforces the import boundaries of docs/architecture.md: each deliberately wrong import is caught,
// and the same import is accepted where the design allows it.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImportErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) =>
      ['no-restricted-imports', '@typescript-eslint/no-restricted-imports', 'no-restricted-globals'].includes(
        m.ruleId ?? '',
      ),
    )
    .map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    [
      'renderer/src/lib/bad.ts',
      "import { createCore } from '../../../electron/core';\nexport const x = createCore;\n",
      /shared\//,
    ],
    [
      'renderer/src/lib/bad.ts',
      "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n",
      /Only electron\/main/,
    ],
    [
      'renderer/src/lib/bad.ts',
      "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      /sandboxed/,
    ],
    ['electron/core/bad.ts', "import { app } from 'electron';\nexport const x = app;\n", /Only electron\/main/],
    ['electron/core/bad.ts', "import App from '../../renderer/src/App.svelte';\nexport const x = App;\n", /plain Node/],
    ['shared/model/bad.ts', "import { join } from 'node:path';\nexport const x = join;\n", /no Node built-ins/],
    [
      'shared/model/bad.ts',
      "import { createCore } from '../../electron/core';\nexport const x = createCore;\n",
      /depends on nothing/,
    ],
    ['shared/model/bad.ts', 'export const x = () => process.env.HOME;\n', /process/],
    [
      'test/service/bad.ts',
      "import { normalizeDoi } from '../../shared/model/doi';\nexport const x = normalizeDoi;\n",
      /independent implementation/,
    ],
    [
      'test/service/bad.ts',
      "import { createCore } from '../../electron/core';\nexport const x = createCore;\n",
      /independent implementation/,
    ],
    [
      'renderer/src/lib/bad.ts',
      "import { requests } from '../../../shared/ipc';\nexport const x = requests;\n",
      /only types from the IPC contract/,
    ],
  ])('%s: rejects %j', async (file, code, message) => {
    const errors = await restrictedImportErrors(file, code);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(message);
  });

  it.each([
    ['electron/main/ok.ts', "import { app } from 'electron';\nexport const x = app;\n"],
    ['electron/preload/ok.ts', "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n"],
    [
      'electron/core/ok.ts',
      "import { join } from 'node:path';\nimport { requests } from '../../shared/ipc';\nexport const x = [join, requests];\n",
    ],
    [
      'renderer/src/lib/ok.ts',
      "import type { Channel } from '../../../shared/ipc';\nimport { WS_PATH } from '../../../shared/ipc/wire';\nexport const x: [Channel?, string?] = [undefined, WS_PATH];\n",
    ],
    [
      'test/service/ok.ts',
      "import { readFileSync } from 'node:fs';\nimport type { Paper } from '../../shared/service';\nexport const x: [typeof readFileSync, Paper?] = [readFileSync];\n",
    ],
  ])('%s: accepts what the design allows', async (file, code) => {
    expect(await restrictedImportErrors(file, code)).toEqual([]);
  });
});
