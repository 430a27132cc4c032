// Every guessed name lives in three places that must agree: the `x-citewise-guess` markers in
// openapi.yaml, the table in GUESSES.md, and the GUESSES object that code reads.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GUESSES, type GuessId } from '../../../shared/service/guesses';
import { evidenceSchemaPath } from '../../../shared/service/index';
import {
  collectGuessMarkers,
  deref,
  guessTableIds,
  isObject,
  listOperations,
  loadContract,
  guessesTableFile,
  type GuessMarker,
  type JsonObject,
} from './contract';

const doc = loadContract();
const markers = collectGuessMarkers(doc);
const tableIds = guessTableIds(readFileSync(guessesTableFile, 'utf8'));
const operations = listOperations(doc);
const markerIds = new Set(markers.flatMap((m) => m.ids));
const guessIds = Object.keys(GUESSES);

function markersOf(id: GuessId): GuessMarker[] {
  return markers.filter((m) => m.ids.includes(id));
}

/** The marked node is an operation: its path and method. */
function operationAt(marker: GuessMarker): { path: string; method: string } {
  const [root, path, method] = marker.at;
  if (root !== 'paths' || path === undefined || method === undefined || marker.at.length !== 3) {
    throw new Error(`${marker.ids.join(',')} is not on an operation: ${marker.at.join('/')}`);
  }
  return { path, method };
}

/** The marked node is a parameter: the parameter. */
function parameterAt(marker: GuessMarker): JsonObject {
  const node = marker.node;
  if (typeof node.name !== 'string' || typeof node.in !== 'string')
    throw new Error(`${marker.ids.join(',')} is not on a parameter: ${marker.at.join('/')}`);
  return node;
}

/** The marked node is a property schema: the property's name. */
function propertyNameAt(marker: GuessMarker): string {
  const at = marker.at;
  if (at[at.length - 2] !== 'properties')
    throw new Error(`${marker.ids.join(',')} is not on a property: ${at.join('/')}`);
  return at[at.length - 1] ?? '';
}

const pathIs = (id: GuessId) => (m: GuessMarker) => expect(operationAt(m).path, id).toBe(GUESSES[id]);
const parameterNameIs = (id: GuessId) => (m: GuessMarker) => expect(parameterAt(m).name, id).toBe(GUESSES[id]);
const propertyNameIs = (id: GuessId) => (m: GuessMarker) => expect(propertyNameAt(m), id).toBe(GUESSES[id]);
const requiredIs = (id: GuessId) => (m: GuessMarker) => expect(m.node.required, id).toEqual(GUESSES[id]);
const isDescribed = (id: GuessId) => () => expect(typeof GUESSES[id], id).toBe('string');

// One check per guess: how its value shows in the YAML. A new guess id fails to compile until it has one.
const CHECKS: Record<GuessId, (marker: GuessMarker) => void> = {
  assistantEffortField: propertyNameIs('assistantEffortField'),
  assistantCancelPath: pathIs('assistantCancelPath'),
  assistantCancelMethod: (m) => expect(operationAt(m).method).toBe(GUESSES.assistantCancelMethod),
  assistantPollRequired: requiredIs('assistantPollRequired'),
  citingSourceDoiParam: parameterNameIs('citingSourceDoiParam'),
  collectionCreateRequired: requiredIs('collectionCreateRequired'),
  device510kSortValues: (m) => {
    expect(parameterAt(m).name).toBe('s');
    const schema = deref(doc, parameterAt(m).schema) as JsonObject;
    expect(schema.enum).toBeUndefined();
    expect(schema.default).toBe(GUESSES.device510kSortValues[0]);
    expect(schema.examples).toEqual([...GUESSES.device510kSortValues]);
  },
  doiPathSlashes: (m) => {
    expect(parameterAt(m)).toMatchObject({ name: 'doi', in: 'path' });
    expect(GUESSES.doiPathSlashes).toBe('literal');
  },
  evidenceFilterParam: parameterNameIs('evidenceFilterParam'),
  evidencePageParam: parameterNameIs('evidencePageParam'),
  evidencePageBase: (m) =>
    expect(parameterAt(m).schema).toMatchObject({
      minimum: GUESSES.evidencePageBase,
      default: GUESSES.evidencePageBase,
    }),
  evidenceSortDirectionParam: parameterNameIs('evidenceSortDirectionParam'),
  evidenceSchemaPath: (m) => {
    const { path } = operationAt(m);
    const dataset = path.split('/').at(-2) ?? '';
    expect(path).toBe(evidenceSchemaPath(dataset));
    // The dataset segment is that of a search operation.
    expect(
      operations.some((o) => o.method === 'get' && o.path === `/api_partner/evidence/${dataset}`),
      path,
    ).toBe(true);
  },
  evidenceSchemaShape: isDescribed('evidenceSchemaShape'),
  evidenceSchemaFilterableField: propertyNameIs('evidenceSchemaFilterableField'),
  evidenceSchemaSortableField: propertyNameIs('evidenceSchemaSortableField'),
  evidenceDetailShape: (m) => {
    isDescribed('evidenceDetailShape')();
    expect(m.node.additionalProperties).toBeUndefined();
  },
  faersSearchPath: pathIs('faersSearchPath'),
  maudeSearchPath: pathIs('maudeSearchPath'),
  faersMaudeResultShape: (m) => {
    isDescribed('faersMaudeResultShape')();
    expect(m.node.required).toEqual(['totalResults', 'delay', 'resultsPerPage', 'from', 'results']);
  },
  maudeFacetsRequired: requiredIs('maudeFacetsRequired'),
  searchCitationTypesParam: parameterNameIs('searchCitationTypesParam'),
};

describe('guessed names', () => {
  it('has a GUESSES.md row and a guesses.ts value for every marker in the YAML', () => {
    expect([...markerIds].filter((id) => !tableIds.includes(id))).toEqual([]);
    expect([...markerIds].filter((id) => !guessIds.includes(id))).toEqual([]);
  });

  it('marks every guessed value and every table row in the YAML', () => {
    expect(guessIds.filter((id) => !markerIds.has(id))).toEqual([]);
    expect(tableIds.filter((id) => !markerIds.has(id))).toEqual([]);
  });

  it('lists each guess once in the table, in the same set as guesses.ts', () => {
    expect(new Set(tableIds).size).toBe(tableIds.length);
    expect([...tableIds].sort()).toEqual([...guessIds].sort());
  });

  it('agrees with the YAML wherever the value is visible there', () => {
    for (const id of guessIds as GuessId[]) {
      const found = markersOf(id);
      expect(found.length, id).toBeGreaterThan(0);
      for (const marker of found) CHECKS[id](marker);
    }
  });

  it('puts every evidence dataset schema endpoint where evidenceSchemaPath() says', () => {
    const searches = operations.filter(
      (o) => o.operationId.startsWith('search') && o.path.startsWith('/api_partner/evidence/'),
    );
    expect(searches).toHaveLength(6);
    for (const search of searches) {
      const dataset = search.path.split('/').at(-1) ?? '';
      const schemaOp = operations.find((o) => o.path === evidenceSchemaPath(dataset));
      expect(schemaOp, dataset).toBeDefined();
      expect(schemaOp?.op['x-citewise-scope']).toBe(search.op['x-citewise-scope']);
    }
  });

  it('uses the guessed evidence parameters on every evidence search', () => {
    const names = [
      GUESSES.evidenceFilterParam,
      GUESSES.evidencePageParam,
      GUESSES.evidenceSortDirectionParam,
      'q',
      's',
    ];
    for (const o of operations.filter(
      (op) => op.operationId.startsWith('search') && op.path.startsWith('/api_partner/evidence/'),
    )) {
      const params = (o.op.parameters as JsonObject[]).map((p) => deref(doc, p)).filter(isObject);
      expect(params.map((p) => p.name).sort(), o.operationId).toEqual([...names].sort());
    }
  });
});
