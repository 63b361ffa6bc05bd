// The allowed websites box: each line must be scheme://host[:port] (http or https, no path, query, user or
// fragment), blank lines and repeats are dropped, at most 20.
import { describe, expect, it } from 'vitest';
import { parseOrigins, toOrigin } from './origins';

describe('toOrigin', () => {
  it.each([
    ['https://shop.example.com', 'https://shop.example.com'],
    ['  https://Shop.Example.com/  ', 'https://shop.example.com'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['https://shop.example.com:443', 'https://shop.example.com'],
  ])('%s is the origin %s', (line, origin) => expect(toOrigin(line)).toBe(origin));

  it.each(['shop.example.com', 'ftp://shop.example.com', 'javascript:alert(1)', 'https://shop.example.com/page', 'https://shop.example.com?x=1', 'https://shop.example.com#top', 'https://user:pw@shop.example.com', 'https://', 'https://exa mple.com', '*'])(
    '%s is refused',
    (line) => expect(toOrigin(line)).toBeNull(),
  );
});

describe('parseOrigins', () => {
  it('skips blank lines and repeats', () => {
    expect(parseOrigins('https://a.example.com\n\nhttps://b.example.com\r\nhttps://A.example.com/\n')).toEqual({ origins: ['https://a.example.com', 'https://b.example.com'], problem: null });
    expect(parseOrigins('')).toEqual({ origins: [], problem: null });
  });

  it('names the first bad line', () => {
    expect(parseOrigins('https://a.example.com\n\nshop.example.com/x\nnope').problem).toEqual({ kind: 'invalid', line: 3, value: 'shop.example.com/x' });
  });

  it('refuses more than 20 websites', () => {
    const lines = Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`).join('\n');
    expect(parseOrigins(lines).problem).toEqual({ kind: 'tooMany', max: 20 });
    expect(parseOrigins(lines.split('\n').slice(0, 20).join('\n')).problem).toBeNull();
  });
});
