import { describe, expect, it } from 'vitest';
import { requests } from '../../../shared/ipc';
import { askInput, DEFAULT_OPTIONS, optionsFrom } from '../../../renderer/src/panes/assistant/ask-input';

describe('the question form', () => {
  it('builds the assistant.ask input, which the contract accepts', () => {
    const built = askInput(7, '  Does it work? ', {
      ...DEFAULT_OPTIONS,
      yearFrom: '2010',
      sources: 'abstracts',
      topics: 'a, b;c',
      scope: 'collection:3',
      openAccessOnly: true,
    });
    expect(built).toEqual({
      input: {
        sessionId: 7,
        question: 'Does it work?',
        options: {
          answerLength: 'medium',
          numReferences: 10,
          rankBy: 'relevance',
          citationStyle: 'apa',
          effort: 'low',
          yearFrom: '2010',
          abstractsOnly: true,
          openAccessOnly: true,
          topics: ['a', 'b', 'c'],
        },
        scope: { kind: 'collection', collectionId: 3 },
      },
    });
    if ('input' in built) expect(requests['assistant.ask'].input.safeParse(built.input).success).toBe(true);
  });

  it('says what is wrong and where before asking', () => {
    expect(askInput(null, '  ', DEFAULT_OPTIONS)).toEqual({ problem: 'Write a question first.', field: 'question' });
    expect(askInput(null, 'q', { ...DEFAULT_OPTIONS, yearTo: '20x' })).toMatchObject({ field: 'yearTo' });
    expect(askInput(null, 'q', { ...DEFAULT_OPTIONS, yearFrom: '2020', yearTo: '2010' })).toMatchObject({
      problem: 'The year range ends before it starts.',
    });
    expect(askInput(null, 'q', { ...DEFAULT_OPTIONS, numReferences: 1001 })).toMatchObject({ field: 'numReferences' });
  });

  it('starts a follow-up from the options of the conversation’s last question', () => {
    const form = optionsFrom(
      {
        answerLength: 'long',
        fullTextsOnly: true,
        journals: ['Nature', 'Science'],
        citationStyle: 'ieee',
        dois: ['10.1000/x'],
      },
      { ...DEFAULT_OPTIONS, scope: 'library' },
    );
    expect(form).toMatchObject({
      answerLength: 'long',
      sources: 'fulltexts',
      journals: 'Nature, Science',
      citationStyle: 'ieee',
      scope: 'any',
      numReferences: 10,
    });
  });
});

describe('the contract refuses bad assistant input with where it is wrong', () => {
  const ask = requests['assistant.ask'].input;
  const issue = (input: unknown) => {
    const r = ask.safeParse(input);
    return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  };

  it('checks questions, options and scopes', () => {
    expect(issue({ sessionId: null, question: 'ok' })).toBeNull();
    expect(issue({ sessionId: null, question: '   ' })).toMatch(/^question: The question is empty/);
    expect(issue({ sessionId: null, question: 'x'.repeat(20_001) })).toMatch(/^question:/);
    expect(issue({ sessionId: null, question: 'q', options: { abstractsOnly: true, fullTextsOnly: true } })).toMatch(
      /options.fullTextsOnly: Choose abstracts only or full texts only/,
    );
    expect(issue({ sessionId: null, question: 'q', options: { yearFrom: '2020', yearTo: '2019' } })).toMatch(
      /options.yearTo: The year range ends before it starts/,
    );
    expect(issue({ sessionId: null, question: 'q', options: { yearFrom: '20' } })).toMatch(
      /options.yearFrom: a four-digit year/,
    );
    expect(issue({ sessionId: null, question: 'q', options: { numReferences: 1001 } })).toMatch(
      /options.numReferences/,
    );
    expect(issue({ sessionId: null, question: 'q', options: { citationStyle: 'turabian' } })).toMatch(
      /options.citationStyle/,
    );
    expect(issue({ sessionId: null, question: 'q', options: { unknown: true } })).toMatch(/options/);
    expect(issue({ sessionId: null, question: 'q', scope: { kind: 'collection' } })).toMatch(/scope.collectionId/);
    expect(issue({ sessionId: null, question: 'q', scope: { kind: 'dois', dois: [] } })).toMatch(/scope.dois/);
    expect(issue({ sessionId: 0, question: 'q' })).toMatch(/^sessionId/);
  });

  it('checks reference-check files: extension, size and encoding', () => {
    const start = requests['assistant.referenceCheck.start'].input;
    const file = (name: string, base64: string) => start.safeParse({ source: { kind: 'file', name, base64 } });
    expect(file('paper.pdf', 'JVBERi0=').success).toBe(true);
    expect(file('refs.BIB', 'QA==').success).toBe(true);
    expect(file('tool.exe', 'QA==').success).toBe(false);
    expect(file('refs.bib', 'not base64!').success).toBe(false);
    expect(file('refs.bib', '').success).toBe(false);
    expect(start.safeParse({ source: { kind: 'collection', collectionId: -1 } }).success).toBe(false);
    expect(requests['assistant.draft'].input.safeParse({ turnId: 1, style: 'vancouver', format: 'pdf' }).success).toBe(
      false,
    );
    expect(requests['assistant.feedback'].input.safeParse({ turnId: 1, value: 'meh' }).success).toBe(false);
  });
});
