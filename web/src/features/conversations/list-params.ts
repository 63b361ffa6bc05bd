// The conversation list's view settings (spec part 2 §2, §9): sort keys, archived toggle and card tags.
import { CONVERSATION_SORT_KEYS, type ConversationSortKey } from '@pluma/common/constants';
import { normalizeTags } from '@pluma/common/rules/tags';

/** spec part 2 §9 sort keys, with their labels' i18n keys (Last Created, Last Updated, A-Z, Z-A). */
export const SORT_OPTIONS: readonly { value: ConversationSortKey; labelKey: string }[] = [
  { value: 'createdAt_desc', labelKey: 'list.sort.createdAt_desc' },
  { value: 'updatedAt_desc', labelKey: 'list.sort.updatedAt_desc' },
  { value: 'name_asc', labelKey: 'list.sort.name_asc' },
  { value: 'name_desc', labelKey: 'list.sort.name_desc' },
];

export const DEFAULT_SORT: ConversationSortKey = 'updatedAt_desc';

/** spec part 2 §9: conversation cards show 3 tags. */
export const CARD_TAG_COUNT = 3;

export function parseSort(value: string | null): ConversationSortKey {
  return (CONVERSATION_SORT_KEYS as readonly string[]).includes(value ?? '') ? (value as ConversationSortKey) : DEFAULT_SORT;
}

export const parseArchived = (value: string | null): boolean => value === '1' || value === 'true';

/** The tags a card shows, and how many more there are. */
export function cardTags(tags: string): { shown: string[]; more: number } {
  const all = normalizeTags(tags);
  return { shown: all.slice(0, CARD_TAG_COUNT), more: Math.max(0, all.length - CARD_TAG_COUNT) };
}
