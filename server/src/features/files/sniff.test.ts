import { describe, expect, it } from 'vitest';
import { sniffUpload } from './sniff';
import { docxBytes, elfBytes, gifBytes, isoMediaBytes, pdfBytes, pngBytes, zipBytes } from './test-fixtures';

describe('sniffUpload', () => {
  it('names accepted formats by their bytes, whatever the file is called', async () => {
    expect(await sniffUpload(pngBytes(), 'photo.jpg')).toEqual({ type: 'png', mime: 'image/png' });
    expect(await sniffUpload(gifBytes(), 'anim')).toEqual({ type: 'gif', mime: 'image/gif' });
    expect(await sniffUpload(pdfBytes(), 'notes.txt')).toEqual({ type: 'pdf', mime: 'application/pdf' });
    expect((await sniffUpload(docxBytes(), 'report.zip'))?.type).toBe('docx');
    expect(await sniffUpload(isoMediaBytes('isom'), 'clip')).toEqual({ type: 'mp4', mime: 'video/mp4' });
    expect(await sniffUpload(isoMediaBytes('qt  '), 'clip.mp4')).toEqual({ type: 'mov', mime: 'video/quicktime' });
  });

  it('refuses executables, whatever the file is called', async () => {
    expect(await sniffUpload(elfBytes(), 'cat.png')).toBeNull();
    expect(await sniffUpload(Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]), 'setup.txt')).toBeNull();
  });

  it('refuses other formats and plain zips', async () => {
    expect(await sniffUpload(zipBytes({ 'a.txt': 'hello' }), 'a.docx')).toBeNull();
    expect(await sniffUpload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'logo.svg')).toBeNull();
    expect(await sniffUpload(Buffer.from('<html><script>alert(1)</script></html>'), 'page.html')).toBeNull();
    expect(await sniffUpload(Buffer.alloc(0), 'empty.txt')).toBeNull();
  });

  it('accepts UTF-8 text under a text name only, without NULs', async () => {
    expect(await sniffUpload(Buffer.from('name,price\nPlan,10\n'), 'prices.csv')).toEqual({ type: 'csv', mime: 'text/csv; charset=utf-8' });
    expect(await sniffUpload(Buffer.from('# Título\n\nañadir'), 'README.MD')).toEqual({ type: 'md', mime: 'text/markdown; charset=utf-8' });
    expect(await sniffUpload(Buffer.from('plain words'), 'words.txt')).toEqual({ type: 'txt', mime: 'text/plain; charset=utf-8' });
    expect(await sniffUpload(Buffer.from('plain words'), 'words.exe')).toBeNull();
    expect(await sniffUpload(Buffer.from('a\u0000b'), 'nul.txt')).toBeNull();
    expect(await sniffUpload(Buffer.from([0x68, 0xc3, 0x28, 0x69]), 'bad-utf8.txt')).toBeNull();
  });
});
