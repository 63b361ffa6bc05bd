// Messages (spec part 2 §3 entity, §4 chat states, §5 prompt rules, §7 calls): requests and responses of
// /api/messages. (Translations live in messages.ts; this file is the chat messages API.)
import { z } from 'zod';
import {
  ENHANCE_MIN_CHARS,
  EXPORT_TEXT_MAX_CHARS,
  MESSAGE_CONTENT_MAX_CHARS,
  MESSAGE_LIST_MAX_PAGE_SIZE,
  MESSAGE_LIST_PAGE_SIZE,
  MESSAGE_SEARCH_MAX_CHARS,
  MESSAGES_MAX_PAGE_SIZE,
  MESSAGES_PAGE_SIZE,
} from './constants';
import { idParam, text } from './schema-kit';

export { EXPORT_TEXT_MAX_CHARS, MESSAGE_CONTENT_MAX_CHARS, MESSAGES_MAX_PAGE_SIZE, MESSAGES_PAGE_SIZE } from './constants';

/** 1 chat, 2 hashtags, 3 topics (spec part 2 §2 "Topics and hashtags"). */
export const MESSAGE_TYPES = { chat: 1, hashtags: 2, topics: 3 } as const;

export const MESSAGE_STATUSES = ['pending', 'streaming', 'done', 'failed', 'interrupted'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Files one prompt may carry. */
export const MESSAGE_MAX_FILES = 10;

/**
 * The OpenAPI descriptions of POST /messages' fields (spec part 2 §7 lists content, conversation_id,
 * message_type_id, stream, avatar_id, saveOnConversation, searchOnInternet, deleteUserMsg,
 * learnFromPrevResponse, model, favorite, message_id; the others are ours). Kept apart from the schema so
 * each field stays one line to read.
 */
const CREATE_MESSAGE_FIELD_DESCRIPTIONS = {
  content: 'The prompt (required unless template_id, user_workflow_id or message_id is given).',
  conversation_id: "The actor's conversation the prompt belongs to.",
  message_type_id: '1 chat (default), 2 hashtags, 3 topics.',
  stream: 'true (default): the answer streams as message_stream frames then message_stream_end; false: one `message` event at the end.',
  avatar_id: "Answer as this avatar and keep it as the conversation's avatar; null stops using one; absent: the conversation's.",
  saveOnConversation:
    'false: a one-off answer not kept in the conversation: it streams and is charged as usual, is never listed, searched or used as context, and its prompt and answer are removed once it ends (done, stopped, failed or interrupted). Default true. New answers only.',
  searchOnInternet: 'Search the web first and cite the pages read as [1], [2]… (sources on the answer). New answers only.',
  deleteUserMsg:
    "true: the user's message is removed once the answer is done; the answer keeps its prompt text (deleteUserMsg true on it), so Continue and Regenerate still work. New answers only.",
  learnFromPrevResponse:
    "true: the conversation's previous finished answer is given to the model as the text to rework (rewrite or continue it as the prompt asks), whatever the token budget. New answers only.",
  model: "A model offered to the actor; null or 'Unset': the conversation's model, else the default.",
  favorite: 'Mark the prompt as a favorite (not with saveOnConversation false).',
  message_id: 'An answer of this conversation to continue (cut off, stopped or interrupted) or, with regenerate, to write again.',
  enhance: 'Prompt enhancement: the improved prompt streams as message_stream_enhance and nothing is saved.',
  regenerate: 'With message_id: write the answer again instead of continuing it.',
  file_ids: "The actor's uploaded files attached to the prompt.",
  template_id: 'Instead of content: a template the actor sees, filled with values server-side.',
  values: "The template's field values.",
  user_workflow_id: 'Instead of content: run the next step of this user workflow.',
} as const;

/** `shape` with each field's OpenAPI description (zod's describe keeps the field's type). */
function described<T extends z.ZodRawShape>(shape: T, descriptions: { [K in keyof T]?: string }): T {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, descriptions[key] ? (schema as z.ZodType).describe(descriptions[key]) : schema])) as T;
}

export const createMessageRequest = z
  .object(described({
    content: text().max(MESSAGE_CONTENT_MAX_CHARS).optional(),
    conversation_id: idParam(),
    /** spec part 2 §4: 'Unset' is sent as null → the conversation's model, else the default. */
    model: text()
      .trim()
      .max(100)
      .nullable()
      .optional()
      .transform((v) => (v === '' || v === 'Unset' ? null : v)),
    message_type_id: z.coerce.number().int().min(1).max(3).optional(),
    /** false: no delta frames, only the final `message` event. */
    stream: z.boolean().optional().default(true),
    /** Prompt enhancement: the result streams as message_stream_enhance and is not saved. */
    enhance: z.boolean().optional().default(false),
    /** An assistant message to continue (finish_reason 'length') or regenerate (any other finished answer). */
    message_id: idParam().optional(),
    /**
     * With message_id: write the answer again from its prompt instead of continuing it. Without it, an
     * answer cut off ('length') or interrupted is continued; a failed or interrupted answer written again
     * replaces its own row (one answer, not two); a finished one gets a new answer.
     */
    regenerate: z.boolean().optional(),
    favorite: z.boolean().optional(),
    /**
     * spec part 2 §7 POST /messages avatar_id: answer as this avatar (its context and knowledge) and keep it
     * as the conversation's avatar; null stops using one; absent → the conversation's avatar, if any.
     */
    avatar_id: idParam().nullable().optional(),
    /**
     * Files attached to this prompt (issue 27 item 2): the actor's own uploads (POST /conversations/file/{id});
     * their text and images reach the model, and the message lists them.
     */
    file_ids: z.array(idParam()).max(MESSAGE_MAX_FILES, { message: 'message_too_many_files' }).optional(),
    /**
     * Instead of content (issue 30 item 9): a template the actor sees and its field values; the server fills
     * the prompt. The model gets the filled prompt; a sender who may not read the template's prompt sees the
     * template's name and the values as the message.
     */
    template_id: idParam().optional(),
    values: z.record(text().max(200), text().max(MESSAGE_CONTENT_MAX_CHARS)).optional(),
    /** Instead of content: run the step of this user workflow whose conversation is conversation_id (filled server-side). */
    user_workflow_id: idParam().optional(),
    /**
     * spec part 2 §7 searchOnInternet (issue 32): the server searches the web (the provider chosen in admin
     * settings), reads the top pages and the answer cites them as [1], [2]…; `sources` keeps them on the
     * answer. A failed search degrades to an answer without the web (`web_search_failed`). New answers only.
     */
    searchOnInternet: z.boolean().optional(),
    // ── spec part 2 §7 POST /messages: the rest of its fields (issue 32 item 2; docs/decisions.md) ──
    /**
     * false: a one-off answer not kept in the conversation. It streams and is charged as usual, but neither
     * the prompt nor the answer is listed, searched or given as context, and both rows are removed once the
     * answer ends (done, stopped, failed or interrupted); the socket events and this response carry its text
     * and ids. Default true. New answers only (not with message_id, favorite or enhance).
     */
    saveOnConversation: z.boolean().optional().default(true),
    /**
     * true: the user's message is removed once the answer is done; the answer keeps its `prompt` text (and
     * presents deleteUserMsg true), so Continue and Regenerate still work. New answers only.
     */
    deleteUserMsg: z.boolean().optional().default(false),
    /**
     * true: the conversation's previous finished answer is given to the model as the text to rework (a
     * rewrite or continuation, e.g. "make it shorter"), kept in the context whatever the token budget.
     * Without a previous answer the prompt is answered as usual. New answers only.
     */
    learnFromPrevResponse: z.boolean().optional().default(false),
  }, CREATE_MESSAGE_FIELD_DESCRIPTIONS))
  .superRefine((v, ctx) => {
    // The fields above shape a new answer: with message_id (an existing answer) or enhance (nothing is
    // saved) they mean nothing, and a favorite that is about to be removed is a contradiction.
    const newAnswerOnly: [keyof typeof v, boolean][] = [
      ['saveOnConversation', !v.saveOnConversation],
      ['deleteUserMsg', v.deleteUserMsg],
      ['learnFromPrevResponse', v.learnFromPrevResponse],
    ];
    for (const [field, set] of newAnswerOnly) {
      if (set && (v.message_id !== undefined || v.enhance)) ctx.addIssue({ code: 'custom', path: [field], message: 'message_field_new_answer_only' });
    }
    if (!v.saveOnConversation && v.favorite) ctx.addIssue({ code: 'custom', path: ['favorite'], message: 'message_unsaved_favorite' });
    const templated = v.template_id !== undefined || v.user_workflow_id !== undefined;
    if (templated) {
      const several = (v.template_id !== undefined && v.user_workflow_id !== undefined) || !!v.content?.trim() || v.message_id !== undefined || v.enhance;
      if (several) ctx.addIssue({ code: 'custom', path: ['template_id'], message: 'message_source_conflict' });
      return;
    }
    if (v.values !== undefined) ctx.addIssue({ code: 'custom', path: ['values'], message: 'message_source_conflict' });
    if (v.message_id === undefined && !(v.content ?? '').trim()) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'message_content_required' });
    }
    if (v.enhance && v.message_id !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['enhance'], message: 'message_enhance_invalid' });
    } else if (v.enhance && (v.content ?? '').trim().length <= ENHANCE_MIN_CHARS) {
      // spec part 2 §5: enhance needs more than 12 characters.
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'message_enhance_too_short' });
    }
  });
export type CreateMessageRequest = z.input<typeof createMessageRequest>;

export const messageIdParams = z.object({ id: idParam() });

/**
 * The finish reason of an answer the user stopped (POST /messages/{id}/stop, issue 30 item 1): it ends as
 * 'done' with the text written so far, charged for those words only, and can be continued like one cut off.
 */
export const STOPPED_FINISH_REASON = 'stopped';

export const listMessagesQuery = z.object({
  /** A message_id: returns messages older than it. */
  cursor: idParam().optional(),
  limit: z.coerce.number().int().min(1).max(MESSAGES_MAX_PAGE_SIZE).default(MESSAGES_PAGE_SIZE),
});

export const updateMessageRequest = z
  .object({
    message_id: idParam(),
    content: text().max(MESSAGE_CONTENT_MAX_CHARS).optional(),
    favorite: z.boolean().optional(),
  })
  .refine((v) => v.content !== undefined || v.favorite !== undefined, { error: 'message_update_empty', path: ['content'] });
export type UpdateMessageRequest = z.input<typeof updateMessageRequest>;

export const exportMessageRequest = z.object({
  text: text().trim().min(1, { error: 'export_text_required' }).max(EXPORT_TEXT_MAX_CHARS),
  /** An answer written with web search (issue 32): its sources, printed after the text under `sources_heading`. */
  sources: z
    .array(z.object({ n: z.number().int().min(1).max(99), title: text().max(300), url: z.url({ protocol: /^https?$/ }).max(2000) }))
    .max(20)
    .optional(),
  /** The list's heading in the user's language (the web's "Sources" / "Fuentes"). */
  sources_heading: text().trim().min(1).max(60).optional(),
});
export type ExportMessageRequest = z.input<typeof exportMessageRequest>;

/**
 * What may be done with a message (server: messages/policy.ts). edit: change its text; share: a public
 * link; continue: append to an answer cut off or interrupted; retry: write a failed or interrupted answer
 * again in place; regenerate: a new answer to a finished one's prompt.
 */
export const MESSAGE_ACTIONS = ['edit', 'favorite', 'delete', 'share', 'continue', 'retry', 'regenerate'] as const;
export type MessageAction = (typeof MESSAGE_ACTIONS)[number];
export const messageAbilities = z.object(Object.fromEntries(MESSAGE_ACTIONS.map((a) => [a, z.boolean()])) as Record<MessageAction, z.ZodBoolean>);

/**
 * A passage an avatar's answer was given (issue 13 item 3: file, page; the passage is shown on click). A
 * deleted file's citations are gone with it (message_citations cascades from files).
 */
export const messageCitation = z.object({
  file_id: z.number(),
  name: z.string(),
  page: z.number().nullable(),
  heading: z.string().nullable(),
  text: z.string(),
});
export type MessageCitation = z.infer<typeof messageCitation>;

/** A file attached to a prompt, as the message lists it. */
export const messageFile = z.object({
  file_id: z.number(),
  name: z.string(),
  type: z.string(),
  size: z.number(),
});
export type MessageFile = z.infer<typeof messageFile>;

/** A web page an answer written with searchOnInternet was given; `n` is the number the answer cites it by. */
export const webSource = z.object({
  n: z.number(),
  title: z.string(),
  url: z.string(),
  /** The host name, shown on the source card. */
  site: z.string(),
  /** The first words read from the page. */
  snippet: z.string(),
});
export type WebSource = z.infer<typeof webSource>;

export const message = z.object({
  message_id: z.number(),
  conversation_id: z.number(),
  role: z.enum(['user', 'assistant']),
  /** null = pending (the assistant has not written anything yet). */
  content: z.string().nullable(),
  prompt: z.string().nullable(),
  model: z.string().nullable(),
  favorite: z.boolean(),
  /** 'stop' | 'length' | 'stopped' (the user's Stop) | 'error' | 'interrupted' | null while streaming. */
  finish_reason: z.string().nullable(),
  status: z.enum(MESSAGE_STATUSES),
  error_code: z.string().nullable(),
  message_type_id: z.number(),
  user_message_id: z.number().nullable(),
  avatar_id: z.number().nullable(),
  organization_id: z.number().nullable(),
  /** Always false here: a chat message; an avatar output's follow-ups are thread messages (isThread true, outputs.ts). */
  isThread: z.literal(false),
  /** spec part 2 §3: the prompt of this answer is removed once it is done (its `prompt` keeps the text). */
  deleteUserMsg: z.boolean(),
  /** false: a one-off answer (and its prompt), removed from the conversation once it ends. */
  saveOnConversation: z.boolean(),
  words_charged: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The avatar answer's passages, in order (empty for other messages). */
  citations: z.array(messageCitation),
  /** A prompt's attached files (issue 27 item 2). */
  files: z.array(messageFile).optional(),
  /** An answer written with searchOnInternet: the pages it cites (absent: no web search). */
  sources: z.array(webSource).optional(),
  /** Its web search failed, so it was written without the web (the web says so plainly). */
  web_search_failed: z.boolean().optional(),
  /** The actions its author may take on it now (DESIGN.md §7); the web offers exactly these. */
  abilities: messageAbilities,
});
export type Message = z.infer<typeof message>;

export const createMessageResponse = z.object({
  /** null when continuing or regenerating an existing answer. */
  user_message: message.nullable(),
  assistant_message: message,
});
export type CreateMessageResponse = z.infer<typeof createMessageResponse>;

export const enhanceResponse = z.object({
  /** Carried by the message_stream_enhance events of this enhancement. */
  enhance_id: z.string(),
  conversation_id: z.number(),
});
export type EnhanceResponse = z.infer<typeof enhanceResponse>;

/** A page of messages, newest first; `next_cursor` is passed as `cursor` for older ones (null: none). */
const pageOf = <T extends z.ZodType>(item: T) => z.object({ messages: z.array(item), next_cursor: z.number().nullable() });

export const messagePage = pageOf(message);
export type MessagePage = z.infer<typeof messagePage>;

// ── Sharing a message (spec part 2 §7 "POST /messages/share/", §8 'Message Shared') ──────────────────
// The spec names the call and its success text only; the fields are ours (docs/decisions.md).

export const shareMessageRequest = z.object({ message_id: idParam() });
export type ShareMessageRequest = z.input<typeof shareMessageRequest>;

/** What the owner sees of a share: the public page is `path` on the app's own origin. */
export const messageShare = z.object({
  share_id: z.number(),
  message_id: z.number(),
  token: z.string(),
  /** /shared/{token} */
  path: z.string(),
  createdAt: z.string(),
});
export type MessageShare = z.infer<typeof messageShare>;

export const shareIdParams = z.object({ id: idParam() });

export const revokedShareResponse = z.object({ revoked: z.literal(true) });

/** Share tokens are 32 random bytes in base64url (43 characters). */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Any string up to a bound: a malformed token is a 404 like an unknown one, not a 400. */
export const sharedTokenParams = z.object({ token: z.string().max(200) });

/** The public read of a shared message: exactly these fields, nothing about its owner or conversation. */
export const sharedMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  model: z.string().nullable(),
  createdAt: z.string(),
  /** The passages an avatar's answer cites (as on the conversation), so the shared answer shows its sources. */
  citations: z.array(messageCitation),
});
export type SharedMessage = z.infer<typeof sharedMessage>;

// ── The actor's messages across conversations (spec part 2 §7 "GET /messages?filters") ─────────────

export { MESSAGE_LIST_MAX_PAGE_SIZE, MESSAGE_LIST_PAGE_SIZE, MESSAGE_SEARCH_MAX_CHARS } from './constants';

const queryFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const browseMessagesQuery = z.object({
  favorite: queryFlag.optional(),
  role: z.enum(['user', 'assistant']).optional(),
  conversation_id: idParam().optional(),
  /** Text to find in the content (case-insensitive, % and _ match themselves). */
  query: text()
    .trim()
    .max(MESSAGE_SEARCH_MAX_CHARS, { error: 'message_query_too_long' })
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** A message_id: returns messages older than it. */
  cursor: idParam().optional(),
  limit: z.coerce.number().int().min(1).max(MESSAGE_LIST_MAX_PAGE_SIZE).default(MESSAGE_LIST_PAGE_SIZE),
  organization_id: idParam().optional(),
});
export type BrowseMessagesQuery = z.input<typeof browseMessagesQuery>;

export const browsedMessage = z.object({
  message_id: z.number(),
  conversation_id: z.number(),
  conversation_name: z.string(),
  role: z.enum(['user', 'assistant']),
  /** Up to 320 characters of the content (around the first match when searching); '…' marks cut ends. null = pending. */
  snippet: z.string().nullable(),
  model: z.string().nullable(),
  favorite: z.boolean(),
  status: z.enum(MESSAGE_STATUSES),
  createdAt: z.string(),
  /** An avatar answer's cited passages (as on the conversation; empty for others). */
  citations: z.array(messageCitation),
});
export type BrowsedMessage = z.infer<typeof browsedMessage>;

export const browsedMessagePage = pageOf(browsedMessage);
export type BrowsedMessagePage = z.infer<typeof browsedMessagePage>;
