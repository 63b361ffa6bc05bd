// Outputs (spec part 2 §3 "Output: output_id, liked, avatar_id", §7 "Outputs" and the real-time events
// `output`, `thread_messages`, `document_avatar`; issue 13 item 5), shared by server and web.
import { z } from 'zod';
import { MAX_AVATAR_TOKENS } from './constants';
import { id, idParam, text } from './schema-kit';

export const OUTPUTS_PAGE_SIZE = 20;
export const OUTPUTS_MAX_PAGE_SIZE = 100;
/** A prompt within the avatar's token budget (spec part 2 §5: 7500 tokens, 4 characters each). */
export const OUTPUT_PROMPT_MAX = MAX_AVATAR_TOKENS * 4;
export const OUTPUT_CONTENT_MAX = 100_000;
/** Prompts of one POST /outputs/generate (each becomes one output). */
export const OUTPUT_PROMPTS_MAX = 5;
/** Follow-up messages kept in one output's thread. */
export const OUTPUT_THREAD_MAX = 40;

const prompt = z.string().refine((v) => v.trim().length > 0, { error: 'avatar_context_required' }).pipe(text().max(OUTPUT_PROMPT_MAX));
const content = z.string().refine((v) => v.trim().length > 0, { error: 'avatar_context_required' }).pipe(text().max(OUTPUT_CONTENT_MAX));

export const outputIdParams = z.object({ id: idParam() });

export const listOutputsQuery = z.object({
  query: text().trim().max(200).optional(),
  liked: z.enum(['true', 'false', 'none']).optional(),
  organization_id: idParam().optional(),
  limit: z.coerce.number().int().min(1).max(OUTPUTS_MAX_PAGE_SIZE).default(OUTPUTS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ListOutputsQuery = z.infer<typeof listOutputsQuery>;

/**
 * POST /outputs/generate {messages[], assistant_id, optional organization_id} (spec part 2 §7). `assistant_id`
 * is the avatar (its id); `training_id` picks a finished training's model, else the avatar's selected one.
 * `target: 'document'` (the editor's Avatars section) answers with `document_avatar` instead of `output`.
 */
export const generateOutputsRequest = z.object({
  messages: z.array(prompt).min(1).max(OUTPUT_PROMPTS_MAX),
  assistant_id: id(),
  training_id: id().nullable().optional(),
  target: z.enum(['output', 'document']).optional(),
  organization_id: idParam().nullable().optional(),
});
export type GenerateOutputsRequest = z.input<typeof generateOutputsRequest>;

/** POST /outputs: an output written (or pasted) by the user, e.g. to like it for a training. */
export const createOutputRequest = z.object({
  avatar_id: id(),
  training_id: id().nullable().optional(),
  prompt: prompt,
  content,
  liked: z.boolean().nullable().optional(),
  organization_id: idParam().nullable().optional(),
});

/** PUT /outputs: edit the text (and the rating). */
export const updateOutputRequest = z.object({ output_id: id(), content: content.optional(), liked: z.boolean().nullable().optional() });
/** POST /outputs/rate {output_id, liked}: true, false, or null to clear. */
export const rateOutputRequest = z.object({ output_id: id(), liked: z.boolean().nullable() });
/** POST /outputs/message: a follow-up in the output's thread; the answer comes as `thread_messages`. */
export const outputMessageRequest = z.object({ output_id: id(), content: prompt });

export const OUTPUT_ACTIONS = ['read', 'update', 'rate', 'message', 'delete'] as const;
export type OutputAction = (typeof OUTPUT_ACTIONS)[number];
export const OUTPUT_STATUSES = ['pending', 'done', 'failed'] as const;

export const output = z.object({
  output_id: z.number(),
  avatar_id: z.number(),
  training_id: z.number().nullable(),
  prompt: z.string(),
  /** null while pending. */
  content: z.string().nullable(),
  status: z.enum(OUTPUT_STATUSES),
  liked: z.boolean().nullable(),
  model: z.string().nullable(),
  error_code: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities: z.object(Object.fromEntries(OUTPUT_ACTIONS.map((a) => [a, z.boolean()])) as Record<OutputAction, z.ZodBoolean>),
});
export type Output = z.infer<typeof output>;

export const outputList = z.object({ outputs: z.array(output), total: z.number() });
export type OutputList = z.infer<typeof outputList>;

/**
 * A follow-up of an output's thread (spec part 2 §3 Message isThread; issue 32 item 2): isThread is true on
 * these — in GET /outputs/{id}'s thread, the `thread_messages` event and GET /messages/thread/{id} — and
 * false on every chat message and chat event (messages-api.ts, events.ts).
 */
export const threadMessage = z.object({
  output_message_id: z.number(),
  output_id: z.number(),
  role: z.enum(['user', 'assistant']),
  /** null while the answer is being written. */
  content: z.string().nullable(),
  isThread: z.literal(true),
  createdAt: z.string(),
});
export type ThreadMessage = z.infer<typeof threadMessage>;
export const outputWithThread = output.extend({ thread: z.array(threadMessage) });
export type OutputWithThread = z.infer<typeof outputWithThread>;

// ── GET /messages/thread/{id}[/{x}] (spec part 2 §7; "Avatar thread shows last 10 messages and loads 10
// more per scroll; scroll-load throttle 120 ms"): an output's thread, newest first, paged by keyset. ──
export const THREAD_PAGE_SIZE = 10;
export const THREAD_SCROLL_THROTTLE_MS = 120;
export const threadParams = z.object({ id: idParam() });
/** x: an output_message_id of this thread (a page's next_cursor): the messages before it. */
export const threadPageParams = z.object({ id: idParam(), x: idParam() });
/** Newest first; `next_cursor` goes in the path for the 10 before (null: none left). */
export const threadPage = z.object({ output_id: z.number(), messages: z.array(threadMessage), next_cursor: z.number().nullable() });
export type ThreadPage = z.infer<typeof threadPage>;

export const generateOutputsResponse = z.object({ outputs: z.array(output) });

/** `output` and `document_avatar`: an output finished (done or failed). */
export interface OutputEventPayload {
  output_id: number;
  avatar_id: number;
  content: string | null;
  isThread: false;
  stream: false;
  output: Output;
}

/** `thread_messages`: the output's thread after a follow-up was answered (or failed). */
export interface ThreadMessagesPayload {
  output_id: number;
  avatar_id: number;
  isThread: true;
  threadMessages: ThreadMessage[];
}
