import { describe, expect, it } from 'vitest';
import { blockHeadingLevels, headingLevel, headingStarts } from './heading-levels';

describe('heading levels in answers', () => {
  it('puts a markdown h1 under the page h1 and never skips a level', () => {
    expect(headingLevel(1, 1)).toBe(2);
    expect(headingLevel(3, 1)).toBe(2);
    expect(headingLevel(3, 2)).toBe(3);
    expect(headingLevel(6, 6)).toBe(6);
    expect(headingLevel(2, 5)).toBe(3);
  });

  it('finds ATX and setext headings, not those in code fences or thematic breaks', () => {
    expect(blockHeadingLevels('### Title\ntext\n')).toEqual([3]);
    expect(blockHeadingLevels('Title\n=====\n\nSub\n---\n')).toEqual([1, 2]);
    expect(blockHeadingLevels('```\n# not a heading\n```\n## after\n')).toEqual([2]);
    expect(blockHeadingLevels('\n---\n- item\n---\n#hashtag\n')).toEqual([]);
  });

  it('gives each block the level of the last heading before it', () => {
    expect(headingStarts(['intro\n\n', '### A\n\n', 'text\n\n', '#### B\n\n', '# C'])).toEqual([1, 1, 2, 2, 3]);
  });
});
