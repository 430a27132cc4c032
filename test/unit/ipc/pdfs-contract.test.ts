// The boundary of pdfs.add: one PDF's bytes as base64, up to MAX_PDF_UPLOAD_BYTES, under a bare file
// name (no path, no control characters), refused with a message that says what is wrong.
import { describe, expect, it } from 'vitest';
import { requests } from '../../../shared/ipc';
import { MAX_PDF_UPLOAD_BYTES, uploadName } from '../../../shared/model/pdf-capture';

const add = requests['pdfs.add'].input;
const problem = (input: unknown): string | null => {
  const r = add.safeParse(input);
  return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
};

describe('pdfs.add input', () => {
  it('takes a PDF at the size limit and refuses one byte more', () => {
    const at = Math.ceil(MAX_PDF_UPLOAD_BYTES / 3) * 4;
    expect(problem({ name: 'a.pdf', base64: 'A'.repeat(at) })).toBeNull();
    expect(problem({ name: 'a.pdf', base64: 'A'.repeat(at + 4) })).toBe('base64: The file is larger than 40 MB');
  });

  it('refuses names that are paths or hold control characters, and text that is not base64', () => {
    expect(problem({ name: '../../etc/passwd', base64: 'JVBERi0=' })).toBe(
      'name: The file name may not hold a path or control characters',
    );
    expect(problem({ name: 'C:\\papers\\a.pdf', base64: 'JVBERi0=' })).toBe(
      'name: The file name may not hold a path or control characters',
    );
    expect(problem({ name: '..', base64: 'JVBERi0=' })).toBe(
      'name: The file name may not hold a path or control characters',
    );
    expect(problem({ name: 'a\u0000.pdf', base64: 'JVBERi0=' })).toBe(
      'name: The file name may not hold a path or control characters',
    );
    expect(problem({ name: 'a.pdf', base64: '%PDF-1.7 raw bytes' })).toBe('base64: The file is not base64');
    expect(problem({ name: 'a.pdf', base64: '' })).toBe('base64: The file is empty');
    expect(problem({ name: 'a.pdf', base64: 'JVBERi0=', path: '/etc/passwd' })).toMatch(/Unrecognized key/);
    expect(problem({ name: 'Müller et al. (2024).pdf', base64: 'JVBERi0=' })).toBeNull();
  });

  it('the renderer makes any chosen name sendable', () => {
    expect(uploadName('paper.pdf')).toBe('paper.pdf');
    expect(uploadName('a/b\\c\u0007.pdf')).toBe('a_b_c_.pdf');
    expect(uploadName('..')).toBe('unnamed.pdf');
    expect(uploadName('x'.repeat(300))).toHaveLength(255);
    for (const n of ['paper.pdf', 'a/b\\c\u0007.pdf', '..', '', 'x'.repeat(300)])
      expect(problem({ name: uploadName(n), base64: 'JVBERi0=' })).toBeNull();
  });
});
