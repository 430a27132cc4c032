// What a drop on the details column may attach: local files only, never a link.
import { describe, expect, it } from 'vitest';
import { droppedPaths } from '../../../renderer/src/panes/library/details/dropped-paths';

const drop = (data: Record<string, string>) => ({ getData: (type: string) => data[type] ?? '' });

describe('droppedPaths', () => {
  it('takes file:// URIs from a file manager, decoded, one per line, skipping comments', () => {
    expect(
      droppedPaths(
        drop({
          'text/uri-list':
            '# from nautilus\r\nfile:///home/ana/Papers/Smith%20et%20al.pdf\r\nfile://localhost/tmp/b.epub\n',
        }),
      ),
    ).toEqual(['/home/ana/Papers/Smith et al.pdf', '/tmp/b.epub']);
  });

  it('turns a Windows file URI into a drive path', () => {
    expect(droppedPaths(drop({ 'text/uri-list': 'file:///C:/Users/ana/paper.pdf' }))).toEqual([
      'C:/Users/ana/paper.pdf',
    ]);
  });

  it('refuses links and files on other hosts', () => {
    expect(
      droppedPaths(
        drop({ 'text/uri-list': 'https://example.org/paper.pdf\nfile://server/share/a.pdf\njavascript:alert(1)' }),
      ),
    ).toEqual([]);
  });

  it('accepts one absolute path as text, nothing else', () => {
    expect(droppedPaths(drop({ 'text/plain': '  /home/ana/a.pdf ' }))).toEqual(['/home/ana/a.pdf']);
    expect(droppedPaths(drop({ 'text/plain': 'C:\\papers\\a.pdf' }))).toEqual(['C:\\papers\\a.pdf']);
    expect(droppedPaths(drop({ 'text/plain': 'paper.pdf' }))).toEqual([]);
    expect(droppedPaths(drop({ 'text/plain': '/a.pdf\n/b.pdf' }))).toEqual([]);
    expect(droppedPaths(drop({ 'text/plain': 'https://example.org/a.pdf' }))).toEqual([]);
  });
});
