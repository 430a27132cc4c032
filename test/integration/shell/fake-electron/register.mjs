// `node --import <this file> out/main/index.js`: the built main process runs in plain Node, with
// `import … from 'electron'` answered by the stand-in in electron.mjs.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
