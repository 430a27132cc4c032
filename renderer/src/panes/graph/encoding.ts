// How papers and edges are drawn: colour by year (a sequential scale) or by journal (the most frequent
// journals get a colour each, the rest grey), size by citing publications or by statements (square
// root, so a landmark does not swallow the view), edges by citation type. Shared by the WebGL view,
// the legend and the SVG/PNG export, so all three agree.
import type { EvidenceType } from '../../../../shared/model/evidence';

/** A sequential scale readable on light and dark backgrounds (viridis-like, without its darkest end). */
export const YEAR_SCALE = ['#3b528b', '#2c728e', '#21918c', '#28ae80', '#5ec962', '#addc30', '#e2c81f'];
/** Categorical colours for journals (Okabe-Ito, colour-blind safe), then grey for the rest. */
export const JOURNAL_COLOURS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#7f6bb8'];
export const OTHER_COLOUR = '#9aa3ad';
export const UNKNOWN_YEAR_COLOUR = '#9aa3ad';
export const RETRACTED_COLOUR = '#c1121f';

export interface Palette {
  supporting: string;
  contrasting: string;
  mentioning: string;
  label: string;
  background: string;
  selected: string;
  match: string;
}

export const LIGHT: Palette = {
  supporting: '#2e9d5b',
  contrasting: '#d9822b',
  mentioning: '#b8bec7',
  label: '#1b1f24',
  background: '#ffffff',
  selected: '#1f5fbf',
  match: '#e11d74',
};
export const DARK: Palette = {
  supporting: '#4cc27e',
  contrasting: '#eda15a',
  mentioning: '#4a515c',
  label: '#e6e9ee',
  background: '#17191d',
  selected: '#5b9cf5',
  match: '#ff5ca8',
};

export function yearColour(year: number | null, range: { min: number; max: number } | null): string {
  if (year === null || !range) return UNKNOWN_YEAR_COLOUR;
  const span = Math.max(1, range.max - range.min);
  const i = Math.round(((year - range.min) / span) * (YEAR_SCALE.length - 1));
  return YEAR_SCALE[Math.min(YEAR_SCALE.length - 1, Math.max(0, i))]!;
}

export function journalColour(journal: string | null, top: readonly string[]): string {
  const i = journal ? top.indexOf(journal) : -1;
  return i >= 0 ? JOURNAL_COLOURS[i % JOURNAL_COLOURS.length]! : OTHER_COLOUR;
}

/** Node radius in pixels (at zoom 1) from a count. */
export function nodeSize(value: number | null, max: number): number {
  if (value === null || value <= 0 || max <= 0) return 3;
  return 3 + 15 * Math.sqrt(value / max);
}

export function edgeColour(kind: EvidenceType, palette: Palette): string {
  return palette[kind];
}

/** The years of the legend's scale, one per colour step. */
export function yearSteps(range: { min: number; max: number }): { year: number; colour: string }[] {
  const span = range.max - range.min;
  const steps = Math.min(YEAR_SCALE.length, span + 1);
  return Array.from({ length: steps }, (_, i) => {
    const year = Math.round(range.min + (steps === 1 ? 0 : (span * i) / (steps - 1)));
    return { year, colour: yearColour(year, range) };
  });
}
