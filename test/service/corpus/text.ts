// Scholarly-sounding text from templates. Each paper has a "topic" (indices into its field's
// vocabularies) derived from its id, so its title, abstract, keywords and the statements that cite it
// all talk about the same thing.
import { type Rng, rngFor } from './rng';
import { FIELDS, type Field, type StatStyle } from './vocab';

export const KIND = {
  paper: 1,
  topic: 2,
  abstract: 3,
  snippet: 4,
  author: 5,
  journal: 6,
  evidence: 7,
  assistant: 8,
  notice: 9,
} as const;

export interface Topic {
  field: Field;
  subject: string;
  factor: string;
  population: string;
  method: string;
  outcome: string;
  mechanism: string;
  design: string;
  /** A second subject, for "X and Y" titles. */
  subject2: string;
}

export function topicFor(seed: number, paperId: number, fieldIndex: number): Topic {
  const r = rngFor(seed, KIND.topic, paperId);
  const field = FIELDS[fieldIndex]!;
  const subject = r.pick(field.subjects);
  let subject2 = r.pick(field.subjects);
  if (subject2 === subject) subject2 = field.subjects[(field.subjects.indexOf(subject) + 1) % field.subjects.length]!;
  return {
    field,
    subject,
    subject2,
    factor: r.pick(field.factors),
    population: r.pick(field.populations),
    method: r.pick(field.methods),
    outcome: r.pick(field.outcomes),
    mechanism: r.pick(field.mechanisms),
    design: r.pick(field.designs),
  };
}

const cap = (s: string): string => (s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1));
const titleCase = (s: string): string =>
  s
    .split(' ')
    .map((w, i) =>
      i > 0 && /^(of|and|in|on|for|the|a|an|to|with|by|via|at|from|as|or|under)$/.test(w)
        ? w
        : w.includes('-') && /^[a-z]/.test(w)
          ? w.split('-').map(cap).join('-')
          : /^[a-z]/.test(w)
            ? cap(w)
            : w,
    )
    .join(' ');

export function titleFor(seed: number, paperId: number, t: Topic): string {
  const r = rngFor(seed, KIND.paper, paperId);
  const templates: Array<() => string> = [
    () => `Association between ${t.subject} and ${t.outcome} in ${t.population}`,
    () => `${cap(t.factor)} alters ${t.subject} through ${t.mechanism}`,
    () => `Effects of ${t.factor} on ${t.subject} in ${t.population}: a ${t.design}`,
    () => `${cap(t.method)} reveals ${t.mechanism} underlying ${t.subject}`,
    () => `${cap(t.subject)} and ${t.subject2} in ${t.population}`,
    () => `Does ${t.factor} improve ${t.outcome}? Evidence from ${t.population}`,
    () => `The role of ${t.mechanism} in ${t.subject}`,
    () => `${cap(t.factor)} and ${t.outcome} among ${t.population}: a ${t.design}`,
    () => `Rethinking ${t.subject}: insights from ${t.method}`,
    () => `Predictors of ${t.outcome} after ${t.factor} in ${t.population}`,
  ];
  const raw = r.pick(templates)();
  return r.chance(0.55) ? titleCase(raw) : raw;
}

function pct(r: Rng, lo: number, hi: number, digits = 1): string {
  return (lo + r.next() * (hi - lo)).toFixed(digits);
}

function resultSentence(r: Rng, t: Topic, style: StatStyle): string {
  switch (style) {
    case 'clinical': {
      const hr = (0.55 + r.next() * 0.4).toFixed(2);
      const lo = (Number(hr) - 0.08 - r.next() * 0.1).toFixed(2);
      const hi = (Number(hr) + 0.06 + r.next() * 0.12).toFixed(2);
      return r.pick([
        `${cap(t.factor)} was associated with improved ${t.outcome} (hazard ratio ${hr}, 95% CI ${lo}–${hi}; p = 0.0${r.int(1, 4)}).`,
        `Median ${t.outcome} was ${pct(r, 8, 30)} months in the intervention group versus ${pct(r, 5, 14)} months in the control group.`,
        `Grade 3 or higher adverse events occurred in ${pct(r, 8, 35)}% of ${r.int(120, 1800)} participants, with no new safety signals.`,
      ]);
    }
    case 'biomedical':
      return r.pick([
        `${cap(t.subject)} correlated with ${t.outcome} (r = 0.${r.int(21, 68)}, p < 0.001) across ${r.int(24, 480)} participants.`,
        `Compared with controls, ${t.population} showed a ${pct(r, 12, 45)}% reduction in ${t.subject} (Cohen's d = 0.${r.int(3, 9)}).`,
        `These effects were abolished by blocking ${t.mechanism}, and were not explained by differences in ${t.outcome}.`,
      ]);
    case 'computational':
      return r.pick([
        `Our approach improves ${t.outcome} by ${pct(r, 1.2, 9.5)} points over strong baselines on ${r.int(3, 12)} benchmarks while reducing compute by ${r.int(18, 70)}%.`,
        `On ${t.population}, ${t.factor} reaches ${pct(r, 71, 97)}% ${t.outcome} with ${r.int(2, 10)}× fewer labelled examples.`,
        `Ablations show that ${t.mechanism} accounts for most of the remaining errors.`,
      ]);
    case 'physical':
      return r.pick([
        `The optimised devices reach a ${t.outcome} of ${pct(r, 18, 26)}% and retain ${pct(r, 82, 98)}% of their initial performance after ${r.int(5, 20) * 100} cycles.`,
        `${cap(t.factor)} lowers the ${t.outcome} by ${r.int(40, 180)} mV at 10 mA cm⁻², which we attribute to ${t.mechanism}.`,
        `Calculations indicate that ${t.mechanism} raises the activation barrier from ${pct(r, 0.2, 0.5, 2)} to ${pct(r, 0.6, 1.1, 2)} eV.`,
      ]);
    case 'social':
      return r.pick([
        `${cap(t.factor)} increased ${t.outcome} by ${pct(r, 2, 14)}% (standard error ${pct(r, 0.6, 2.5)}), with larger effects for women.`,
        `Effects on ${t.subject} persist ${r.int(2, 10)} years later and are concentrated among ${t.population}.`,
        `We find no evidence that ${t.mechanism} drives the results; placebo tests and event-study estimates support a causal interpretation.`,
      ]);
    case 'environmental':
      return r.pick([
        `${cap(t.subject)} declined by ${pct(r, 9, 48)}% between ${r.int(1980, 2000)} and ${r.int(2010, 2022)}, with the steepest losses in ${t.population}.`,
        `${cap(t.factor)} explained ${r.int(25, 70)}% of the variance in ${t.outcome} (R² = 0.${r.int(25, 70)}).`,
        `Projected changes in ${t.outcome} exceed natural variability by the 2050s under a high-emissions scenario.`,
      ]);
  }
}

export function abstractFor(seed: number, paperId: number, t: Topic): string {
  const r = rngFor(seed, KIND.abstract, paperId);
  const background = r.pick([
    `${cap(t.subject)} is increasingly recognised as a determinant of ${t.outcome}, yet the contribution of ${t.factor} remains unclear.`,
    `Although ${t.mechanism} has been implicated in ${t.subject}, evidence from ${t.population} is scarce.`,
    `Understanding how ${t.factor} shapes ${t.subject} is central to current debates in ${t.field.topic.toLowerCase()}.`,
    `Previous work has produced conflicting estimates of the relationship between ${t.subject} and ${t.outcome}.`,
  ]);
  const aim = r.pick([
    `Here we examined whether ${t.factor} modifies ${t.subject} in ${t.population}.`,
    `We aimed to quantify the effect of ${t.factor} on ${t.outcome} and to test the role of ${t.mechanism}.`,
    `This ${t.design} investigated ${t.subject} and ${t.subject2} in ${t.population}.`,
  ]);
  const methods = r.pick([
    `Using ${t.method}, we analysed data from ${r.int(40, 5000)} ${t.population.startsWith('the ') ? 'sites' : 'cases'} collected between ${r.int(1995, 2012)} and ${r.int(2014, 2023)}.`,
    `We combined ${t.method} with ${t.field.methods[(t.field.methods.indexOf(t.method) + 1) % t.field.methods.length]} to characterise ${t.subject}.`,
    `${cap(t.method)} was used to measure ${t.outcome}, and models were adjusted for prespecified confounders.`,
  ]);
  const results = [resultSentence(r, t, t.field.stats)];
  if (r.chance(0.6)) results.push(resultSentence(r, t, t.field.stats));
  const conclusion = r.pick([
    `These findings suggest that ${t.mechanism} links ${t.factor} to ${t.subject}.`,
    `Our results support targeting ${t.subject} to improve ${t.outcome} in ${t.population}.`,
    `Taken together, the data indicate that ${t.factor} has a modest but robust effect on ${t.outcome}.`,
    `Further work is needed to establish whether these associations are causal.`,
  ]);
  return [background, aim, methods, ...results, conclusion].join(' ');
}

export function keywordsFor(seed: number, paperId: number, t: Topic): string[] {
  const r = rngFor(seed, KIND.paper, paperId ^ 0x5bd1e995);
  const pool = [t.subject, t.factor, t.method, t.outcome, t.mechanism, t.field.topic.toLowerCase()];
  return r.sample(pool, r.int(3, 5));
}

export const SECTIONS = ['introduction', 'methods', 'results', 'discussion', 'other'] as const;

/** A sentence from the citing paper (source) about the cited paper (target). */
export function snippetFor(
  seed: number,
  citationId: number,
  type: number,
  section: number,
  target: Topic,
  targetFirstFamily: string,
  targetYear: number,
  source: Topic,
): string {
  const r = rngFor(seed, KIND.snippet, citationId);
  const ref = r.chance(0.5) ? `${targetFirstFamily} et al. (${targetYear})` : `previous work [${r.int(1, 60)}]`;
  const refTail = r.chance(0.5) ? ` (${targetFirstFamily} et al., ${targetYear})` : ` [${r.int(1, 60)}]`;
  const t = target;
  if (type === 1) {
    return r.pick([
      `Consistent with ${ref}, we found that ${t.factor} was associated with greater ${t.subject} in ${source.population}.`,
      `Our results confirm the role of ${t.mechanism} in ${t.subject} reported by ${ref}.`,
      `This agrees with earlier evidence that ${t.subject} predicts ${t.outcome}${refTail}.`,
      `In line with ${ref}, the effect of ${t.factor} on ${t.outcome} was robust to adjustment for ${source.subject}.`,
    ]);
  }
  if (type === 2) {
    return r.pick([
      `In contrast to ${ref}, we did not observe an effect of ${t.factor} on ${t.outcome}.`,
      `These findings differ from reports that ${t.subject} is driven by ${t.mechanism}${refTail}.`,
      `Unlike ${ref}, our data do not support an association between ${t.subject} and ${t.outcome} in ${source.population}.`,
      `This contradicts the conclusion of ${ref} that ${t.factor} improves ${t.outcome}.`,
    ]);
  }
  switch (SECTIONS[section]) {
    case 'methods':
      return r.pick([
        `${cap(t.method)} was performed as described previously${refTail}.`,
        `Data were processed following the protocol of ${ref}, with minor modifications.`,
        `We used the ${t.outcome} measure validated by ${ref}.`,
      ]);
    case 'introduction':
      return r.pick([
        `${cap(t.subject)} has been linked to ${t.outcome} in ${t.population}${refTail}.`,
        `Several studies have examined how ${t.factor} influences ${t.subject}${refTail}.`,
        `${cap(t.mechanism)} is thought to contribute to ${t.subject} (for a review, see ${ref}).`,
      ]);
    default:
      return r.pick([
        `A similar pattern of ${t.subject} has been described in ${t.population}${refTail}.`,
        `${cap(t.factor)} may also affect ${source.subject}, as suggested by ${ref}.`,
        `Future studies should test whether ${t.mechanism} explains these effects${refTail}.`,
        `Whether these results generalise beyond ${t.population} remains to be established${refTail}.`,
      ]);
  }
}
