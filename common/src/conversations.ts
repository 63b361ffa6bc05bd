// Conversations (spec part 2 §3 entity, §5 validation, §7 calls): requests and responses of /api/conversations.
import { z } from 'zod';
import { CONVERSATION_MAX_TAGS, CONVERSATION_NAME_MAX, CONVERSATION_SORT_KEYS, CONVERSATION_TAG_MAX, CONVERSATIONS_MAX_PAGE_SIZE, CONVERSATIONS_PAGE_SIZE } from './constants';
import { normalizeTags } from './rules/tags';
import { idParam, text } from './schema-kit';

export { CONVERSATION_MAX_TAGS, CONVERSATION_NAME_MAX, CONVERSATION_TAG_MAX, CONVERSATIONS_MAX_PAGE_SIZE, CONVERSATIONS_PAGE_SIZE } from './constants';
export { normalizeTags } from './rules/tags';

const tagsInput = z
  .union([text().max(CONVERSATION_MAX_TAGS * (CONVERSATION_TAG_MAX + 1)), z.array(text().max(CONVERSATION_TAG_MAX)).max(CONVERSATION_MAX_TAGS)])
  .transform((v) => normalizeTags(v))
  .refine((tags) => tags.length <= CONVERSATION_MAX_TAGS && tags.every((t) => t.length <= CONVERSATION_TAG_MAX), {
    error: 'conversation_tags_invalid',
  });

/** spec part 2 §4: the model value 'Unset' is sent as null. */
const modelInput = text()
  .trim()
  .max(100)
  .nullable()
  .transform((v) => (v === '' || v === 'Unset' ? null : v));

const organizationIdInput = idParam();

const booleanQuery = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

export const conversationSortKey = z.enum(CONVERSATION_SORT_KEYS);

export const listConversationsQuery = z.object({
  query: text().trim().max(200).optional(),
  sortBy: conversationSortKey.default('updatedAt_desc'),
  /** Comma list; a conversation matches when it has any of them. */
  tags: text().max(2000).optional().transform((v) => normalizeTags(v)),
  archived: booleanQuery.optional().default(false),
  organization_id: organizationIdInput.optional(),
  limit: z.coerce.number().int().min(1).max(CONVERSATIONS_MAX_PAGE_SIZE).default(CONVERSATIONS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  /** Opaque keyset cursor from a previous page's next_cursor (takes precedence over offset). */
  cursor: text().max(500).optional(),
});
export type ListConversationsQuery = z.infer<typeof listConversationsQuery>;

export const conversationTagsQuery = z.object({
  archived: booleanQuery.optional(),
  organization_id: organizationIdInput.optional(),
});

export const conversationIdParams = z.object({ id: idParam() });

export const createConversationRequest = z.object({
  name: text({ error: 'conversation_name_required' }).trim().min(1, { error: 'conversation_name_required' }).max(CONVERSATION_NAME_MAX),
  model: modelInput.optional(),
  archived: z.boolean().optional(),
  tags: tagsInput.optional(),
  organization_id: organizationIdInput.nullable().optional(),
  /** Start it with this avatar answering (the avatar page's chat button); one the user may not use is a 404. */
  avatar_id: idParam().nullable().optional(),
});
export type CreateConversationRequest = z.input<typeof createConversationRequest>;

export const updateConversationRequest = z.object({
  conversation_id: idParam(),
  name: text().trim().min(1, { error: 'conversation_name_required' }).max(CONVERSATION_NAME_MAX).optional(),
  model: modelInput.optional(),
  archived: z.boolean().optional(),
  tags: tagsInput.optional(),
});
export type UpdateConversationRequest = z.input<typeof updateConversationRequest>;

export const conversationFile = z.object({
  file_id: z.number(),
  name: z.string(),
  type: z.string(),
  src: z.string(),
});

/** What a user may do with a conversation (DESIGN.md §7: presenters carry the actor's abilities). */
export const CONVERSATION_ACTIONS = ['read', 'update', 'delete', 'chat'] as const;
export type ConversationAction = (typeof CONVERSATION_ACTIONS)[number];
export const conversationAbilities = z.object(Object.fromEntries(CONVERSATION_ACTIONS.map((a) => [a, z.boolean()])) as Record<ConversationAction, z.ZodBoolean>);

export const conversation = z.object({
  conversation_id: z.number(),
  name: z.string(),
  /** null = Unset (the default model). */
  model: z.string().nullable(),
  archived: z.boolean(),
  /** Comma-separated, as the spec has it. */
  tags: z.string(),
  avatar_id: z.number().nullable(),
  organization_id: z.number().nullable(),
  file: conversationFile.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The actions the signed-in user may take on it; the web offers exactly these. */
  abilities: conversationAbilities,
});
export type Conversation = z.infer<typeof conversation>;

export const conversationList = z.object({
  conversations: z.array(conversation),
  total: z.number(),
  /** true: there are more than `total`, which is then the cap (shown as "1,000+"; server/src/db/capped-count.ts). */
  total_capped: z.boolean().optional(),
  /** Pass as `cursor` to get the next page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type ConversationList = z.infer<typeof conversationList>;

export const conversationTags = z.object({
  tags: z.array(z.object({ tag: z.string(), count: z.number() })),
});
export type ConversationTags = z.infer<typeof conversationTags>;

export const deletedResponse = z.object({ deleted: z.literal(true) });
