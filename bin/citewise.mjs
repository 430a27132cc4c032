#!/usr/bin/env node
// The `citewise` command. The TypeScript sources are built into out/cli by `npm run build`.
import { existsSync } from 'node:fs';

const entry = new URL('../out/cli/index.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('citewise: not built yet; run `npm run build` first.\n');
  process.exit(1);
}
await import(entry.href);
