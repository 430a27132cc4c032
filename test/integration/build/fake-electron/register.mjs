// `node --import ./register.mjs out/main/index.js`: runs the Electron main bundle in plain Node, with
// `electron` resolved to the fake beside this file, to exercise the bundle's own code (its chunks and
// how it finds its workers). See electron.mjs for what the fake does.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
