// The docs describe the code by its paths. A renamed or removed file leaves a page that points nowhere,
// so every repository path a doc names in backticks must exist, and nothing may cite a design document
// that is not in the repository.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../../..');
const ROOTS = ['electron/', 'shared/', 'renderer/', 'test/', 'scripts/', 'docs/', 'resources/', '.ci/'];

function tracked(): string[] {
  return execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '' && existsSync(join(ROOT, f)));
}

/** Repository paths a Markdown text names in backticks: `electron/core/index.ts`, `docs/workers.md`, `test/e2e/`. */
export function citedPaths(markdown: string): string[] {
  const out = new Set<string>();
  for (const match of markdown.matchAll(/`([^`\s]+)`/g)) {
    let path = match[1]!.replace(/[.,;:)]+$/, '').replace(/:\d+(-\d+)?$/, '');
    if (!ROOTS.some((root) => path.startsWith(root))) continue;
    // Patterns and placeholders name many files, not one: `test/e2e/*.test.ts`, `out/<name>.js`.
    if (/[*<>{}$|]/.test(path) || path.includes('…') || path.includes('...')) continue;
    if (path.includes('#')) path = path.slice(0, path.indexOf('#'));
    out.add(path.replace(/\/$/, ''));
  }
  return [...out];
}

describe('paths cited in the docs', () => {
  it('reads a path, a folder, a line and leaves patterns alone', () => {
    expect(
      citedPaths('see `electron/core/index.ts:12`, `docs/`, `test/e2e/*.test.ts`, `out/main/x.js` and `shared/ipc`.'),
    ).toEqual(['electron/core/index.ts', 'docs', 'shared/ipc']);
  });

  it('every repository path a Markdown file names exists', () => {
    const docs = tracked().filter((f) => f.endsWith('.md') && !f.startsWith('node_modules/'));
    expect(docs).toContain('docs/architecture.md');
    const missing: string[] = [];
    for (const doc of docs) {
      for (const path of citedPaths(readFileSync(join(ROOT, doc), 'utf8'))) {
        // A module named as code imports it (`shared/model/doi`) is a file with an extension.
        const found = ['', '.ts', '.js', '.svelte'].some((ext) => existsSync(join(ROOT, path + ext)));
        if (!found) missing.push(`${doc}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('no file cites a design document outside the repository', () => {
    const citing = tracked()
      .filter(
        (f) =>
          !f.startsWith('node_modules/') &&
          /\.(ts|js|mjs|svelte|md|json|sh)$/.test(f) &&
          f !== 'test/unit/docs/cited-paths.test.ts',
      )
      .filter((f) => readFileSync(join(ROOT, f), 'utf8').includes('DESIGN' + '.md'));
    expect(citing).toEqual([]);
  });
});
