// `citewise import ~/Zotero`: a Zotero data folder imported whole from the command line, with a
// report line of counts and a warning for each file Zotero listed but the folder lacks.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeZoteroFolder } from '../../helpers/zotero-db';
import { run, tempDir } from './helpers';

const data = tempDir();
const files = tempDir('citewise-cli-zotero-');
afterAll(() => {
  data.remove();
  files.remove();
});

describe('citewise import ZOTERO-FOLDER', () => {
  it('imports the folder, says what came, and adds nothing the second time', async () => {
    const folder = join(files.path, 'Zotero');
    writeZoteroFolder(folder, {
      collections: [{ key: 'COLLAAAA', name: 'Reading' }],
      bbt: { ITEMAAAA: ['darwin1859', true] },
      items: [
        {
          key: 'ITEMAAAA',
          type: 'book',
          fields: { title: 'On the Origin of Species', date: '1859', publisher: 'John Murray' },
          creators: [{ type: 'author', first: 'Charles', last: 'Darwin' }],
          collections: ['COLLAAAA'],
          tags: ['evolution'],
        },
        { key: 'NOTEAAAA', type: 'note', parent: 'ITEMAAAA', note: '<p>First edition.</p>' },
        {
          key: 'ATTAAAAA',
          type: 'attachment',
          parent: 'ITEMAAAA',
          fields: { title: 'Scan' },
          attachment: { linkMode: 0, contentType: 'application/pdf', path: 'storage:origin.pdf' },
        },
      ],
    });
    const first = await run(data.path, 'import', folder);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('(Zotero data folder): 1 item added of 1');
    expect(first.stdout).toContain('1 note (0 standalone)');
    expect(first.stdout).toContain('1 collection');
    expect(first.stdout).toContain('1 citation key kept from Better BibTeX');
    expect(first.stderr).toContain(`attachment file not found: ${join(folder, 'storage', 'ATTAAAAA', 'origin.pdf')}`);
    const second = await run(data.path, 'import', join(folder, 'zotero.sqlite'));
    expect(second.stdout).toContain('0 items added of 1, 1 item already in the library');
    const search = await run(data.path, 'search', 'darwin');
    expect(search.stdout).toContain('darwin1859');
  });
});
