// The reader's pure parts: the words a `fulltext:` hit highlights, its keys, the outline list, and
// what it says about files pdf.js cannot open (the errors come from pdf.js itself, on files built as
// an encrypted and a damaged PDF really are).
import { describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { snippetMatch } from '../../../../renderer/src/panes/reader/hit';
import { readerKey } from '../../../../renderer/src/panes/reader/keys';
import { flattenOutline, type OutlineNode } from '../../../../renderer/src/panes/reader/outline';
import { openProblem, ReadError } from '../../../../renderer/src/panes/reader/problems';
import { makePdf } from '../../../helpers/pdfs';

describe('snippetMatch', () => {
  it('takes the first marked phrase, its words joined', () => {
    expect(snippetMatch('…the «zymurgy» «quasar» of folded chains…')).toBe('zymurgy quasar');
    expect(snippetMatch('…the «zymurgy quasar» of folded «zymurgy» again')).toBe('zymurgy quasar');
    expect(snippetMatch('«heat» shock and then «stress»')).toBe('heat');
  });
  it('gives null for a snippet without a mark, or an empty one', () => {
    expect(snippetMatch('no mark at all')).toBeNull();
    expect(snippetMatch('an «» empty mark')).toBeNull();
    expect(snippetMatch('')).toBeNull();
  });
});

describe('readerKey', () => {
  const key = (key: string, init: Partial<KeyboardEventInit> = {}, tagName = 'DIV') =>
    readerKey({
      key,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      ...init,
      target: { tagName, isContentEditable: false },
    } as unknown as KeyboardEvent);

  it('pages, jumps and zooms from the pages, never while typing', () => {
    expect(key('n')).toBe('next');
    expect(key('j')).toBe('next');
    expect(key('p')).toBe('previous');
    expect(key('k')).toBe('previous');
    expect(key('Home')).toBe('first');
    expect(key('End')).toBe('last');
    expect(key('+')).toBe('zoom-in');
    expect(key('-')).toBe('zoom-out');
    expect(key('Escape')).toBe('close');
    expect(key('n', {}, 'INPUT')).toBeNull();
    expect(key('Escape', {}, 'INPUT')).toBeNull();
    expect(key('x')).toBeNull();
    expect(key('n', { altKey: true })).toBeNull();
  });
  it('takes Ctrl/⌘+F and Ctrl/⌘+plus/minus in a field too', () => {
    expect(key('f', { ctrlKey: true }, 'INPUT')).toBe('find');
    expect(key('F', { metaKey: true })).toBe('find');
    expect(key('=', { ctrlKey: true })).toBe('zoom-in');
    expect(key('-', { ctrlKey: true }, 'INPUT')).toBe('zoom-out');
    expect(key('n', { ctrlKey: true })).toBeNull();
  });
});

describe('flattenOutline', () => {
  const node = (title: string, items: OutlineNode[] = []): OutlineNode => ({ title, dest: title, items });
  it('lists entries depth first with their depth, an empty title named', () => {
    expect(flattenOutline([node('1', [node('1.1', [node('1.1.1')]), node('1.2')]), node('  ')])).toEqual([
      { title: '1', dest: '1', depth: 0 },
      { title: '1.1', dest: '1.1', depth: 1 },
      { title: '1.1.1', dest: '1.1.1', depth: 2 },
      { title: '1.2', dest: '1.2', depth: 1 },
      { title: '(untitled)', dest: '  ', depth: 0 },
    ]);
  });
  it('stops at the limit: below, at and above it', () => {
    const many = Array.from({ length: 5 }, (_, i) => node(String(i)));
    expect(flattenOutline(many, 6)).toHaveLength(5);
    expect(flattenOutline(many, 5)).toHaveLength(5);
    expect(flattenOutline(many, 4)).toHaveLength(4);
  });
});

describe('openProblem', () => {
  const failureOf = async (bytes: Uint8Array): Promise<unknown> => {
    const task = getDocument({ data: bytes, isEvalSupported: false, verbosity: 0 });
    try {
      await task.promise;
    } catch (err) {
      return err;
    } finally {
      await task.destroy();
    }
    throw new Error('pdf.js opened it');
  };

  it('says a password-protected file needs its password removed', async () => {
    const err = await failureOf(await makePdf({ title: 'Locked', pages: [['x']], encrypted: true }));
    expect(openProblem(err, 'locked.pdf')).toMatch(/^locked\.pdf is protected with a password/);
  });

  it("says a damaged file is damaged, with pdf.js's reason", async () => {
    const good = await makePdf({ title: 'Whole', pages: [['x']] });
    // A download cut short: the header and the first objects, no cross-reference table or trailer.
    const err = await failureOf(good.subarray(0, 300));
    expect(openProblem(err, 'cut.pdf')).toMatch(/^cut\.pdf is damaged: it is not a readable PDF \(.+\)\./);
    const junk = await failureOf(new TextEncoder().encode('%PDF-1.7\nnothing else'));
    expect(openProblem(junk, 'junk.pdf')).toMatch(/^junk\.pdf is damaged/);
  });

  it("passes the core's refusal of a range on as it is", () => {
    expect(openProblem(new ReadError('paper.pdf changed while it was open; open it again.', 'CONFLICT'), 'x')).toBe(
      'paper.pdf changed while it was open; open it again.',
    );
    expect(openProblem(new Error('boom'), 'x.pdf')).toBe('x.pdf could not be opened: boom');
  });
});
