import { describe, expect, it } from 'vitest';
import {
  answerBody,
  answerParts,
  citedOrder,
  cslFromReference,
  keepReferences,
  markdownDraft,
  noticeSeverity,
  pandocCitation,
  replaceMarkers,
  type AssistantAnswerReference,
} from '../../../shared/model/assistant';

const ANSWER = `Sleep loss impairs working memory [1][2]. Older adults recover more slowly [3].

Not all studies agree [2, 4]; see also [5-6].

References
[1] Park H. Working memory. 2005.
[2] Larsen S. BDNF. 2016.`;

describe('answer markers', () => {
  it('drops the reference list the service appends, and keeps a "References" line that is part of the text', () => {
    expect(answerBody(ANSWER)).toBe(
      'Sleep loss impairs working memory [1][2]. Older adults recover more slowly [3].\n\nNot all studies agree [2, 4]; see also [5-6].',
    );
    expect(answerBody('References\nare discussed below [1].')).toBe('References\nare discussed below [1].');
  });

  it('finds clusters of markers, expands lists and ranges, and leaves markers that name no reference as text', () => {
    const parts = answerParts(answerBody(ANSWER), 6);
    expect(parts.filter((p) => p.kind === 'cite').map((p) => (p.kind === 'cite' ? p.numbers : []))).toEqual([
      [1, 2],
      [3],
      [2, 4],
      [5, 6],
    ]);
    expect(citedOrder(parts)).toEqual([1, 2, 3, 4, 5, 6]);
    // [7] does not exist; [0] never does; a huge range is not a citation.
    const odd = answerParts('A [7]. B [0]. C [1-99999]. D [2].', 3);
    expect(odd.filter((p) => p.kind === 'cite')).toEqual([{ kind: 'cite', numbers: [2], raw: '[2]' }]);
    expect(replaceMarkers(odd, () => '<X>')).toBe('A [7]. B [0]. C [1-99999]. D <X>.');
  });

  it('keeps only the chosen references, removing emptied clusters with the space before them', () => {
    const parts = keepReferences(answerParts('One [1]. Two [2][3]. Three [2].', 3), new Set([3]));
    expect(replaceMarkers(parts, (n) => `{${n.join(',')}}`)).toBe('One. Two {3}. Three.');
  });
});

describe('Markdown drafts', () => {
  it('turns markers into Pandoc citations with the references’ keys', () => {
    const keys: Record<number, string> = {
      1: 'parkWorking2005',
      2: 'larsenBdnf2016',
      3: 'smith:2020',
      4: 'a',
      5: 'b',
      6: 'c',
    };
    const md = markdownDraft(answerParts(answerBody(ANSWER), 6), (n) => keys[n]!);
    expect(md).toBe(
      'Sleep loss impairs working memory [@parkWorking2005; @larsenBdnf2016]. Older adults recover more slowly [@smith:2020].\n\nNot all studies agree [@larsenBdnf2016; @a]; see also [@b; @c].\n',
    );
  });

  it('keeps the service’s text as text: no raw HTML, no stray citations', () => {
    const md = markdownDraft(
      answerParts('See <img src=x onerror=alert(1)> and @smith2020 or [9] \\ok [1].', 1),
      () => 'k',
    );
    expect(md).toBe('See \\<img src=x onerror=alert(1)\\> and \\@smith2020 or \\[9\\] \\\\ok [@k].\n');
  });

  it('braces keys that Pandoc would cut short', () => {
    expect(pandocCitation(['doe2020.', 'x y', 'ok_1'])).toBe('[@{doe2020.}; @{x y}; @ok_1]');
  });
});

describe('references as CSL', () => {
  it('builds a CSL item from the assistant’s paper, authors in order', () => {
    const ref = {
      doi: '10.1/X',
      title: 'Fallback title',
      paper: {
        title: 'Working memory',
        doi: '10.1/x',
        year: 2005,
        journal: 'Frontiers',
        volume: '3',
        authors: [
          { authorName: 'Zhen Yamamoto', authorSequenceNumber: 2 },
          { authorName: 'Hannah  Park', authorSequenceNumber: 1 },
          { authorName: 'Plato', authorSequenceNumber: 3 },
        ],
      },
    } as unknown as AssistantAnswerReference;
    expect(cslFromReference(ref, 'k')).toEqual({
      id: 'k',
      type: 'article-journal',
      title: 'Working memory',
      author: [{ family: 'Park', given: 'Hannah' }, { family: 'Yamamoto', given: 'Zhen' }, { literal: 'Plato' }],
      'container-title': 'Frontiers',
      volume: '3',
      issued: { 'date-parts': [[2005]] },
      DOI: '10.1/x',
    });
  });

  it('ranks notices: retracted and withdrawn first, then concern, then others', () => {
    expect(noticeSeverity(['Has erratum', 'Retracted'])).toBe('retracted');
    expect(noticeSeverity(['Withdrawn'])).toBe('retracted');
    expect(noticeSeverity(['Has expression of concern'])).toBe('concern');
    expect(noticeSeverity(['Has correction'])).toBe('notice');
    expect(noticeSeverity([])).toBeNull();
  });
});
