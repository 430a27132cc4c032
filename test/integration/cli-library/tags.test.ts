// `citewise tags`: listing, renaming, merging, deleting and colouring tags from the command line, on a
// library imported from a .bib whose keywords became tags; usage mistakes exit 2 with the usage said.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, tempDir } from './helpers';

let data: ReturnType<typeof tempDir>;

beforeAll(async () => {
  data = tempDir();
  const bib = join(data.path, 'tagged.bib');
  writeFileSync(
    bib,
    [
      '@article{a1, title = {One}, author = {Ames, A.}, year = {2001}, keywords = {to-read, ML}}',
      '@article{b2, title = {Two}, author = {Baker, B.}, year = {2002}, keywords = {toread; ml}}',
      '@article{c3, title = {Three}, author = {Cole, C.}, year = {2003}, keywords = {review}}',
      '',
    ].join('\n'),
  );
  expect((await run(data.path, 'import', bib)).code).toBe(0);
});
afterAll(() => data?.remove());

const tags = async () =>
  (JSON.parse((await run(data.path, 'tags', '--json')).stdout) as { tags: { name: string; count: number }[] }).tags.map(
    (t) => `${t.name}:${t.count}`,
  );

describe('citewise tags', () => {
  it('lists, renames, merges and deletes tags across every item', async () => {
    expect(await tags()).toEqual(['ML:2', 'review:1', 'to-read:1', 'toread:1']);
    const renamed = await run(data.path, 'tags', 'rename', 'review', 'reviews');
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toBe('renamed: 1 item changed\n');
    const merged = await run(data.path, 'tags', 'merge', 'toread', 'to-read', '--into', 'queue', '--json');
    expect(JSON.parse(merged.stdout)).toEqual({ action: 'merge', items: 2 });
    expect(await tags()).toEqual(['ML:2', 'queue:2', 'reviews:1']);
    expect((await run(data.path, 'tags', 'delete', 'reviews')).stdout).toBe('deleted: 1 item changed\n');
    expect(await tags()).toEqual(['ML:2', 'queue:2']);
  });

  it('colours tags with their keys, and refuses what is not a colour or a key', async () => {
    const colored = await run(data.path, 'tags', 'color', 'queue', '#ff6666');
    expect(colored.code).toBe(0);
    expect(colored.stdout).toBe('key 1\t#ff6666\tqueue\n');
    await run(data.path, 'tags', 'color', 'ML', '#3366ff', '--position', '1');
    const list = await run(data.path, 'tags');
    expect(list.stdout).toBe('ML\t2\tkey 1 #3366ff\nqueue\t2\tkey 2 #ff6666\n');
    const bad = await run(data.path, 'tags', 'color', 'ML', 'blue');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('not a colour like #ff6666');
    expect((await run(data.path, 'tags', 'color', 'ML', '#3366ff', '--position', '10')).code).toBe(2);
    expect((await run(data.path, 'tags', 'color', 'ML', 'none')).stdout).toBe('key 1\t#ff6666\tqueue\n');
  });

  it('says how to call it when the arguments are wrong', async () => {
    for (const args of [['rename', 'one'], ['merge', 'a'], ['delete'], ['shuffle']]) {
      const r = await run(data.path, 'tags', ...args);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect((await run(data.path, 'tags', 'merge', 'a')).stderr).toContain('--into');
  });
});
