// The Evidence pane's filter builder: field:"value" pairs, quoted and escaped, and read back.
import { describe, expect, it } from 'vitest';
import {
  buildFilter,
  MAX_FILTER_VALUE,
  pairProblem,
  parseFilter,
  quoteValue,
} from '../../../renderer/src/panes/evidence/filter';

describe('the filter string', () => {
  it('writes space-separated field:"value" pairs with every value in double quotes', () => {
    expect(
      buildFilter([
        { field: 'trialState.phase', value: 'Phase 3' },
        { field: 'sponsors', value: 'Acme' },
      ]),
    ).toBe('trialState.phase:"Phase 3" sponsors:"Acme"');
    expect(buildFilter([])).toBe('');
  });

  it('escapes quotes and backslashes inside values, and trims them', () => {
    expect(quoteValue('say "hi"')).toBe('"say \\"hi\\""');
    expect(quoteValue('C:\\dir')).toBe('"C:\\\\dir"');
    expect(buildFilter([{ field: 'brand_name', value: '  The "Best" pump\\2 ' }])).toBe(
      'brand_name:"The \\"Best\\" pump\\\\2"',
    );
  });

  it('keeps characters that would end an unquoted value (spaces, colons, parentheses) inside the quotes', () => {
    expect(buildFilter([{ field: 'device.decision', value: 'Substantially Equivalent (SESE): yes' }])).toBe(
      'device.decision:"Substantially Equivalent (SESE): yes"',
    );
  });

  it.each([
    [{ field: '', value: 'x' }, /Choose a field/],
    [{ field: 'a b', value: 'x' }, /not a field name/],
    [{ field: 'x:"y" z', value: 'x' }, /not a field name/],
    [{ field: 'country', value: '   ' }, /Give a value for country/],
    [{ field: 'country', value: 'x'.repeat(MAX_FILTER_VALUE + 1) }, /longer than/],
  ])('refuses %j, saying why', (pair, message) => {
    expect(pairProblem(pair)).toMatch(message);
    expect(() => buildFilter([pair])).toThrow(message);
  });

  it('refuses a field the schema does not list', () => {
    expect(pairProblem({ field: 'colour', value: 'red' }, ['country', 'state'])).toMatch(
      /not one of this dataset's filterable fields/,
    );
    expect(pairProblem({ field: 'country', value: 'US' }, ['country', 'state'])).toBeNull();
  });

  it('reads back what it writes, whatever the value holds', () => {
    const pairs = [
      { field: 'a', value: 'plain' },
      { field: 'b.c', value: 'with "quotes" and \\ backslash' },
      { field: 'tags[]', value: 'x:y (z)' },
    ];
    expect(parseFilter(buildFilter(pairs))).toEqual({ pairs, problem: null });
  });

  it('reads unquoted values and says where a string cannot be read', () => {
    expect(parseFilter('country:US  state:"MA"')).toEqual({
      pairs: [
        { field: 'country', value: 'US' },
        { field: 'state', value: 'MA' },
      ],
      problem: null,
    });
    expect(parseFilter('country:US nonsense')).toEqual({
      pairs: [{ field: 'country', value: 'US' }],
      problem: 'Expected field:"value" at character 12.',
    });
    expect(parseFilter('state:"MA').problem).toBe('The value of state (character 1) has no closing quote.');
    expect(parseFilter('state:""').problem).toBe('state (character 1) has an empty value.');
  });
});
