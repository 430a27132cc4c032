// The question form's options and how they become the assistant.ask input. Pure: tested in Node.
import type { InputOf } from '../../../../shared/ipc';
import type { AssistantOptions } from '../../../../shared/model/assistant';
import type { CitationStyle } from '../../../../shared/service';

export type ScopeChoice = 'any' | 'library' | `collection:${number}`;

/** The question's options as the form holds them (strings for the inputs). */
export interface OptionsForm {
  answerLength: 'short' | 'medium' | 'long';
  numReferences: number;
  rankBy:
    'all' | 'relevance' | 'date' | 'citations' | 'supporting-citations' | 'contrasting-citations' | 'journal-rank';
  yearFrom: string;
  yearTo: string;
  sources: 'any' | 'abstracts' | 'fulltexts';
  openAccessOnly: boolean;
  topics: string;
  journals: string;
  citationStyle: CitationStyle;
  effort: 'minimal' | 'low' | 'medium' | 'high';
  scope: ScopeChoice;
}

export const DEFAULT_OPTIONS: OptionsForm = {
  answerLength: 'medium',
  numReferences: 10,
  rankBy: 'relevance',
  yearFrom: '',
  yearTo: '',
  sources: 'any',
  openAccessOnly: false,
  topics: '',
  journals: '',
  citationStyle: 'apa',
  effort: 'low',
  scope: 'any',
};

const list = (text: string): string[] =>
  text
    .split(/[,;\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The form as the assist.ask input; problems the core would refuse are found here first, with where. */
export function askInput(
  sessionId: number | null,
  question: string,
  o: OptionsForm,
): { input: InputOf<'assistant.ask'> } | { problem: string; field: string } {
  if (!question.trim()) return { problem: 'Write a question first.', field: 'question' };
  for (const [field, v] of [
    ['yearFrom', o.yearFrom],
    ['yearTo', o.yearTo],
  ] as const) {
    if (v.trim() && !/^\d{4}$/.test(v.trim()))
      return { problem: `The year range takes four-digit years (“${v}” is not one).`, field };
  }
  if (o.yearFrom.trim() && o.yearTo.trim() && o.yearFrom.trim() > o.yearTo.trim())
    return { problem: 'The year range ends before it starts.', field: 'yearTo' };
  if (!Number.isInteger(o.numReferences) || o.numReferences < 0 || o.numReferences > 1000)
    return { problem: 'The number of references is a whole number from 0 to 1000.', field: 'numReferences' };
  const options: InputOf<'assistant.ask'>['options'] = {
    answerLength: o.answerLength,
    numReferences: o.numReferences,
    rankBy: o.rankBy,
    citationStyle: o.citationStyle,
    effort: o.effort,
    ...(o.yearFrom.trim() ? { yearFrom: o.yearFrom.trim() } : {}),
    ...(o.yearTo.trim() ? { yearTo: o.yearTo.trim() } : {}),
    ...(o.sources === 'abstracts' ? { abstractsOnly: true } : o.sources === 'fulltexts' ? { fullTextsOnly: true } : {}),
    ...(o.openAccessOnly ? { openAccessOnly: true } : {}),
    ...(list(o.topics).length ? { topics: list(o.topics) } : {}),
    ...(list(o.journals).length ? { journals: list(o.journals) } : {}),
  };
  const scope: InputOf<'assistant.ask'>['scope'] =
    o.scope === 'any'
      ? { kind: 'any' }
      : o.scope === 'library'
        ? { kind: 'library' }
        : { kind: 'collection', collectionId: Number(o.scope.slice('collection:'.length)) };
  return { input: { sessionId, question: question.trim(), options, scope } };
}

/** The form for a follow-up: the options the conversation's last question was asked with (its scope is chosen anew). */
export function optionsFrom(o: AssistantOptions, base: OptionsForm): OptionsForm {
  return {
    ...base,
    answerLength: o.answerLength ?? base.answerLength,
    numReferences: o.numReferences ?? base.numReferences,
    rankBy: o.rankBy ?? base.rankBy,
    yearFrom: o.yearFrom ?? '',
    yearTo: o.yearTo ?? '',
    sources: o.abstractsOnly ? 'abstracts' : o.fullTextsOnly ? 'fulltexts' : 'any',
    openAccessOnly: o.openAccessOnly ?? false,
    topics: (o.topics ?? []).join(', '),
    journals: (o.journals ?? []).join(', '),
    citationStyle: o.citationStyle ?? base.citationStyle,
    effort: o.effort ?? base.effort,
    scope: 'any',
  };
}
