// A child process for the kill -9 tests: imports `count` generated items into a library in one
// transaction, generating them chunk by chunk so the import starts at once. It reports on stdout
// "importing" when the transaction is open and "committed <n>" when done; the parent kills it at a
// random moment in between.
import { openLibrary } from '../../../../electron/core/library/open';
import { generateItems } from './generate-items';

const [file, countText, seedText] = process.argv.slice(2);
const count = Number(countText);
const seed = Number(seedText);
const opened = openLibrary(file!);
const session = opened.library.beginImport({ source: `kill-test-${seed}` });
process.stdout.write('importing\n');
for (let offset = 0; offset < count; offset += 5000)
  session.add(generateItems(Math.min(5000, count - offset), seed, offset));
const result = session.commit();
process.stdout.write(`committed ${result.added}\n`);
opened.close();
