// The page cursor (issue 31 item 1): read back only for the list and page it was made for; anything else,
// forged or foreign, reads as no cursor (the page is then read by its number).
import { describe, expect, it } from 'vitest';
import { encodePageCursor, readPageCursor } from './page-cursor';

describe('page cursor', () => {
  const scope = ['documents', 7, null, 'name_asc', ''];
  const forged = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');

  it('reads back its key for the page it precedes, in the same list only', () => {
    const cursor = encodePageCursor(scope, 24, { value: 'plan', id: 31 });
    expect(readPageCursor(cursor, scope, 24, 'text')).toEqual({ value: 'plan', id: 31 });
    expect(readPageCursor(cursor, scope, 48, 'text')).toBeNull();
    expect(readPageCursor(cursor, scope, 0, 'text')).toBeNull();
    expect(readPageCursor(cursor, ['documents', 8, null, 'name_asc', ''], 24, 'text')).toBeNull();
    expect(readPageCursor(cursor, ['documents', 7, null, 'name_desc', ''], 24, 'text')).toBeNull();
    expect(readPageCursor(cursor, ['documents', 7, null, 'name_asc', 'plan'], 24, 'text')).toBeNull();
  });

  it('reads forged and malformed cursors as none', () => {
    const fp = (Buffer.from(encodePageCursor(scope, 24, { value: 'x', id: 1 }), 'base64url').toString('utf8').match(/^\["([^"]+)"/) ?? [])[1];
    expect(readPageCursor(forged([fp, 24, 'x', 2 ** 40]), scope, 24, 'text')).toBeNull();
    expect(readPageCursor(forged([fp, 24, 'x', -1]), scope, 24, 'text')).toBeNull();
    expect(readPageCursor(forged([fp, 24, 'not a date', 1]), scope, 24, 'timestamptz')).toBeNull();
    expect(readPageCursor(forged([fp, 24, 'x'.repeat(1001), 1]), scope, 24, 'text')).toBeNull();
    expect(readPageCursor(forged([fp, 24, 'x', 1]), scope, 24, 'text')).toEqual({ value: 'x', id: 1 });
    expect(readPageCursor('%%%not-base64', scope, 24, 'text')).toBeNull();
    expect(readPageCursor(forged({ a: 1 } as unknown as unknown[]), scope, 24, 'text')).toBeNull();
    expect(readPageCursor(undefined, scope, 24, 'text')).toBeNull();
  });
});
