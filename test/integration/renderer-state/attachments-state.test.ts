// The details column's attachments (renderer/src/panes/library/details/attachments.svelte.ts) in Node
// against a real in-process core and real files: attaching a typed or dropped path, the core's
// refusal kept as the error, a drop that names no local file, opening where no application can
// (the path is shown to copy), and checks answered for an item no longer shown.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryRow } from '../../../shared/model/library';
import { AttachmentsState } from '../../../renderer/src/panes/library/details/attachments.svelte';
import { tempDir } from '../../helpers/tmp';
import { coreForTests, offlineCore, seed } from './helpers';

let rows: Record<string, LibraryRow>;
let files: ReturnType<typeof tempDir>;

const env = coreForTests(() => offlineCore('attachments'));

beforeAll(async () => {
  rows = await seed(
    env.t.api,
    '@article{a2020, title = {A}, year = 2020}\n@article{b2021, title = {B}, year = 2021}\n',
  );
  files = tempDir('citewise-files-');
  writeFileSync(join(files.path, 'a.pdf'), '%PDF-1.4 first');
  writeFileSync(join(files.path, 'b.pdf'), '%PDF-1.4 second');
});

afterAll(async () => {
  files?.remove();
});

/** What a drop hands over: the parts of DataTransfer the state reads. */
const drop = (data: Record<string, string>, types: string[] = Object.keys(data)): DataTransfer =>
  ({ getData: (k: string) => data[k] ?? '', types }) as unknown as DataTransfer;

describe('AttachmentsState against the core', () => {
  it("attaches a typed path, and keeps the path and the core's reason when the file is not there", async () => {
    const state = new AttachmentsState(env.t.api);
    state.path = join(files.path, 'missing.pdf');
    await state.add(rows.a2020!.id);
    expect(state.error).not.toBeNull();
    expect(state.notice).toBe('');
    expect(state.adding).toBe(false);
    expect(state.path).toBe(join(files.path, 'missing.pdf'));

    state.path = join(files.path, 'a.pdf');
    await state.add(rows.a2020!.id);
    expect(state.error).toBeNull();
    expect(state.notice).toBe('Attached a.pdf.');
    expect(state.path).toBe('');
    await state.refresh(rows.a2020!.id);
    const item = await env.t.api.invoke('library.item.get', { id: rows.a2020!.id });
    const id = item.ok ? item.value.attachments[0]!.id : -1;
    expect(state.check(id)?.state).toBe('ok');
  });

  it('attaches the dropped files up to the first the core refuses, and says both', async () => {
    const state = new AttachmentsState(env.t.api);
    await state.drop(
      rows.b2021!.id,
      drop({ 'text/uri-list': `file://${join(files.path, 'b.pdf')}\nfile://${join(files.path, 'gone.pdf')}` }),
    );
    expect(state.notice).toBe('Attached b.pdf.');
    expect(state.error).not.toBeNull();
    expect(state.adding).toBe(false);
  });

  it('says why a drop naming no local file cannot be attached', async () => {
    const state = new AttachmentsState(env.t.api);
    await state.drop(rows.b2021!.id, drop({ 'text/uri-list': 'https://example.org/paper.pdf' }));
    expect(state.error).toBe('Only files on this computer can be attached: drop a file, or paste its full path.');
    await state.drop(rows.b2021!.id, drop({}, ['Files']));
    expect(state.error).toMatch(/^Citewise cannot see where a dropped file is kept here/);
  });

  it('shows the path to copy where no application can open the file', async () => {
    const opened: string[] = [];
    const state = new AttachmentsState(env.t.api, (url) => opened.push(url));
    const item = await env.t.api.invoke('library.item.get', { id: rows.a2020!.id });
    const attachment = item.ok ? item.value.attachments[0]! : null;
    await state.open(rows.a2020!.id, attachment!.id);
    expect(state.error).toBeNull();
    expect(state.revealed).toEqual({ id: attachment!.id, path: join(files.path, 'a.pdf') });
    // Browser mode also opens the file the host serves to this session, in a new tab.
    expect(opened).toEqual([expect.stringMatching(new RegExp(`/attachments/${rows.a2020!.id}/${attachment!.id}$`))]);
    state.dismiss();
    expect(state.revealed).toBeNull();
  });

  it('drops the checks of an item no longer shown', async () => {
    const state = new AttachmentsState(env.net.api);
    const attachmentOf = async (itemId: number): Promise<number> => {
      const item = await env.t.api.invoke('library.item.get', { id: itemId });
      return item.ok ? item.value.attachments[0]!.id : -1;
    };
    const release = env.net.hold('library.attachments.check');
    const slow = state.refresh(rows.a2020!.id);
    state.reset();
    await state.refresh(rows.b2021!.id);
    release();
    await slow;
    expect(state.check(await attachmentOf(rows.b2021!.id))?.state).toBe('ok');
    expect(state.check(await attachmentOf(rows.a2020!.id))).toBeUndefined();
  });
});
