import { describe, expect, it } from 'vitest';
import { cardTags, parseArchived, parseSort, SORT_OPTIONS } from './list-params';

describe('conversation list settings', () => {
  it('offers the four sort keys and falls back to Last Updated', () => {
    expect(SORT_OPTIONS.map((o) => o.value)).toEqual(['createdAt_desc', 'updatedAt_desc', 'name_asc', 'name_desc']);
    expect(parseSort('name_desc')).toBe('name_desc');
    expect(parseSort('bogus')).toBe('updatedAt_desc');
    expect(parseSort(null)).toBe('updatedAt_desc');
  });

  it('reads the archived toggle', () => {
    expect(parseArchived('1')).toBe(true);
    expect(parseArchived(null)).toBe(false);
  });

  it('shows up to 3 tags and counts the rest', () => {
    expect(cardTags('a, b,c,d,e')).toEqual({ shown: ['a', 'b', 'c'], more: 2 });
    expect(cardTags('')).toEqual({ shown: [], more: 0 });
  });
});
