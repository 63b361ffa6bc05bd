import { describe, expect, it } from 'vitest';
import { createConversationRequest, listConversationsQuery, normalizeTags, updateConversationRequest } from './conversations';

describe('conversation contracts', () => {
  it('normalizes tags from a comma list or an array: trimmed, unique regardless of case, no empties', () => {
    expect(normalizeTags(' work, ideas ,,Work, blog ')).toEqual(['work', 'ideas', 'blog']);
    expect(normalizeTags(['a,b', ' c ', 'A'])).toEqual(['a', 'b', 'c']);
    expect(normalizeTags(undefined)).toEqual([]);
  });

  it('requires a name and sends Unset as null (spec part 2 §4, §5)', () => {
    expect(createConversationRequest.safeParse({ name: '   ' }).success).toBe(false);
    const parsed = createConversationRequest.parse({ name: ' Plan ', model: 'Unset', tags: 'x, y' });
    expect(parsed).toMatchObject({ name: 'Plan', model: null, tags: ['x', 'y'] });
    expect(updateConversationRequest.parse({ conversation_id: '4', model: null })).toMatchObject({ conversation_id: 4, model: null });
  });

  it('list query: defaults, sort keys, page bounds', () => {
    expect(listConversationsQuery.parse({})).toMatchObject({ sortBy: 'updatedAt_desc', archived: false, limit: 50, offset: 0, tags: [] });
    expect(listConversationsQuery.parse({ archived: 'true', tags: 'a,b', limit: '100' })).toMatchObject({ archived: true, tags: ['a', 'b'], limit: 100 });
    expect(listConversationsQuery.safeParse({ sortBy: 'random' }).success).toBe(false);
    expect(listConversationsQuery.safeParse({ limit: '101' }).success).toBe(false);
    expect(listConversationsQuery.safeParse({ organization_id: 'abc' }).success).toBe(false);
  });
});
