// One table of reference-file formats: every surface (the export request, auto-export, the CLI's
// names, the Export dialog) reads it, so a name accepted in one place is accepted in all.
import { describe, expect, it } from 'vitest';
import { EXPORT_FILE_FORMATS } from '../../../shared/ipc';
import {
  AUTO_EXPORT_EXTENSIONS,
  AUTO_EXPORT_FORMAT_LABELS,
  AUTO_EXPORT_FORMATS,
} from '../../../shared/model/auto-export';
import {
  REFERENCE_FORMAT_INFO,
  REFERENCE_FORMAT_NAMES,
  REFERENCE_FORMATS,
  referenceFormatNamed,
} from '../../../shared/model/reference-formats';
import { FORMATS } from '../../../renderer/src/panes/library/export/choices';

describe('reference-file formats', () => {
  it('finds a format by the name users type and by its id, in any case', () => {
    expect(referenceFormatNamed('csl-json')).toBe('csljson');
    expect(referenceFormatNamed('csljson')).toBe('csljson');
    expect(referenceFormatNamed(' BibLaTeX ')).toBe('biblatex');
    expect(referenceFormatNamed('RIS')).toBe('ris');
    for (const f of REFERENCE_FORMATS) {
      expect(referenceFormatNamed(f)).toBe(f);
      expect(referenceFormatNamed(REFERENCE_FORMAT_INFO[f].name)).toBe(f);
    }
  });

  it('knows no other name: bibliographies, extensions and near misses are not reference formats', () => {
    for (const name of [
      'text',
      'html',
      'rtf',
      'bib',
      'json',
      'csl',
      'csl_json',
      'bibtex2',
      '',
      '__proto__',
      'constructor',
    ])
      expect(referenceFormatNamed(name)).toBeUndefined();
  });

  it('is the list every surface offers', () => {
    expect([...EXPORT_FILE_FORMATS]).toEqual([...REFERENCE_FORMAT_NAMES]);
    expect([...AUTO_EXPORT_FORMATS]).toEqual([...REFERENCE_FORMATS]);
    expect(REFERENCE_FORMATS.map((f) => REFERENCE_FORMAT_INFO[f].name)).toEqual([...REFERENCE_FORMAT_NAMES]);
    for (const f of REFERENCE_FORMATS) {
      expect(AUTO_EXPORT_EXTENSIONS[f]).toBe(REFERENCE_FORMAT_INFO[f].extension);
      expect(AUTO_EXPORT_FORMAT_LABELS[f]).toBe(REFERENCE_FORMAT_INFO[f].label);
    }
    const dialog = FORMATS.filter((c) => !c.bibliography);
    expect(dialog.map((c) => c.id)).toEqual([...REFERENCE_FORMAT_NAMES]);
    expect(dialog.map((c) => c.label)).toEqual(['BibTeX (.bib)', 'BibLaTeX (.bib)', 'RIS (.ris)', 'CSL-JSON (.json)']);
  });
});
