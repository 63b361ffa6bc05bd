// Messages (spec part 2 §3 entity, §4 chat states, §5 prompt rules, §7 calls): requests and responses of
// /api/messages. (Translations live in messages.ts; this file is the chat messages API.)
import { z } from 'zod';
import { ENHANCE_MIN_CHARS } from './constants';

export const MESSAGES_PAGE_SIZE = 20;
export const MESSAGES_MAX_PAGE_SIZE = 100;
/** Hard cap on one prompt's characters; the token rule (7500 ≈ 30000 characters) refuses long ones first. */
export const MESSAGE_CONTENT_MAX_CHARS = 200_000;
export const EXPORT_TEXT_MAX_CHARS = 500_000;

/** 1 chat, 2 hashtags, 3 topics (spec part 2 §2 "Topics and hashtags"). */
export const MESSAGE_TYPES = { chat: 1, hashtags: 2, topics: 3 } as const;

export const MESSAGE_STATUSES = ['pending', 'streaming', 'done', 'failed', 'interrupted'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const createMessageRequest = z
  .object({
    content: z.string().max(MESSAGE_CONTENT_MAX_CHARS).optional(),
    conversation_id: z.coerce.number().int().positive(),
    /** spec part 2 §4: 'Unset' is sent as null → the conversation's model, else the default. */
    model: z
      .string()
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
    message_id: z.coerce.number().int().positive().optional(),
    favorite: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
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

export const messageIdParams = z.object({ id: z.coerce.number().int().positive() });

export const listMessagesQuery = z.object({
  /** A message_id: returns messages older than it. */
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(MESSAGES_MAX_PAGE_SIZE).default(MESSAGES_PAGE_SIZE),
});

export const updateMessageRequest = z
  .object({
    message_id: z.coerce.number().int().positive(),
    content: z.string().max(MESSAGE_CONTENT_MAX_CHARS).optional(),
    favorite: z.boolean().optional(),
  })
  .refine((v) => v.content !== undefined || v.favorite !== undefined, { error: 'message_update_empty', path: ['content'] });
export type UpdateMessageRequest = z.input<typeof updateMessageRequest>;

export const exportMessageRequest = z.object({
  text: z.string().trim().min(1, { error: 'export_text_required' }).max(EXPORT_TEXT_MAX_CHARS),
});

export const message = z.object({
  message_id: z.number(),
  conversation_id: z.number(),
  role: z.enum(['user', 'assistant']),
  /** null = pending (the assistant has not written anything yet). */
  content: z.string().nullable(),
  prompt: z.string().nullable(),
  model: z.string().nullable(),
  favorite: z.boolean(),
  /** 'stop' | 'length' | 'error' | 'interrupted' | null while streaming. */
  finish_reason: z.string().nullable(),
  status: z.enum(MESSAGE_STATUSES),
  error_code: z.string().nullable(),
  message_type_id: z.number(),
  user_message_id: z.number().nullable(),
  avatar_id: z.number().nullable(),
  organization_id: z.number().nullable(),
  isThread: z.boolean(),
  words_charged: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
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

export const messagePage = z.object({
  /** Newest first. */
  messages: z.array(message),
  /** Pass as `cursor` for older messages; null when there are none. */
  next_cursor: z.number().nullable(),
});
export type MessagePage = z.infer<typeof messagePage>;
