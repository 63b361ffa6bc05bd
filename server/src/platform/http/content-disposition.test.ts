import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition';

describe('contentDisposition', () => {
  it('sends an ASCII fallback and the exact name RFC 8187-encoded', () => {
    expect(contentDisposition('attachment', 'Informe año 😀.docx')).toBe(
      `attachment; filename="Informe a_o __.docx"; filename*=UTF-8''Informe%20a%C3%B1o%20%F0%9F%98%80.docx`,
    );
    expect(contentDisposition('inline', 'a"b\\c;d%e.png')).toBe(`inline; filename="a_b_c_d_e.png"; filename*=UTF-8''a%22b%5Cc%3Bd%25e.png`);
  });

  it('never throws: lone surrogates become U+FFFD, pairs stay', () => {
    for (const name of ['\uD800', 'a\uDC00b', '\uDBFF\uDBFF\uDFFF', '𝕏\uD835', '', '\u0000\r\n']) {
      const header = contentDisposition('attachment', name);
      expect(header).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[\x21-\x7e]*$/);
    }
    expect(contentDisposition('attachment', 'a\uDC00b')).toContain(`filename*=UTF-8''a%EF%BF%BDb`);
    expect(contentDisposition('attachment', '\uDBFF\uDBFF\uDFFF')).toContain(`filename*=UTF-8''%EF%BF%BD%F4%8F%BF%BF`);
  });
});
