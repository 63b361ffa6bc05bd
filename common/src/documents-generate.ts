// Generation into a document (spec part 2 §2 "Documents and editor": the Tools panel's Templates, Avatars,
// Prompt and Super-fetch sections, the campaign document page's 'Generate Document'; §7 POST
// /documents/avatar-output; the `document_output` event; issue 15 item 1). Shared by server and web.
// The server answers 202 with a generation at once; the markdown arrives as `document_output` frames and is
// saved as it streams, so a reload finds it (GET /documents/{id}/generations?unapplied=true) until the editor
// has inserted it and saved (POST /documents/generations/{id}/applied).
import { z } from 'zod';
import { SUPER_FETCH_INPUT_MAX, SUPER_FETCH_INPUTS, SUPER_FETCH_REQUIRED, type SuperFetchInputKey } from './super-fetch';
import { DOCUMENT_GENERATE_TEXT_MAX } from './rules/document-text';
import { id, idParam, text } from './schema-kit';

export { DOCUMENT_GENERATE_TEXT_MAX } from './rules/document-text';

export const DOCUMENT_GENERATION_KINDS = ['prompt', 'avatar', 'template', 'super_fetch'] as const;
export type DocumentGenerationKind = (typeof DOCUMENT_GENERATION_KINDS)[number];
export const DOCUMENT_GENERATION_STATUSES = ['streaming', 'done', 'failed', 'stopped'] as const;
export type DocumentGenerationStatus = (typeof DOCUMENT_GENERATION_STATUSES)[number];

/** The instruction ('prompt') or the message to the avatar ('avatar'). */
export const DOCUMENT_GENERATE_PROMPT_MAX = 8_000;
/** GET /documents/{id}/generations answers at most this many. */
export const DOCUMENT_GENERATIONS_LIST_MAX = 20;

const superFetchInputs = z
  .object(Object.fromEntries(SUPER_FETCH_INPUTS.map((key) => [key, text().trim().max(SUPER_FETCH_INPUT_MAX).optional()])) as Record<
    SuperFetchInputKey,
    z.ZodOptional<z.ZodString>
  >)
  .partial();

/**
 * POST /documents/avatar-output (JSON, or multipart: a `data` JSON part with this body + an optional `file`
 * for 'super_fetch', .docx/.pdf/.pptx/.txt, read like Super Fetch's file).
 * - 'prompt': `prompt` is the instruction (required); `avatar_id` an optional persona.
 * - 'avatar': `avatar_id` and `prompt` (the message) required.
 * - 'template': `template_id` required, `values` its field values; the server fills it (a hidden prompt stays there).
 * - 'super_fetch': `inputs` (Task, Topic, Target, Person, Tone, Format required), filled with the admin's prompt.
 */
export const documentGenerateRequest = z
  .object({
    kind: z.enum(DOCUMENT_GENERATION_KINDS),
    document_id: id().nullable().optional(),
    campaign_id: id().optional(),
    avatar_id: id().optional(),
    prompt: text().trim().max(DOCUMENT_GENERATE_PROMPT_MAX).default(''),
    template_id: id().optional(),
    values: z.record(text().max(254), text().max(DOCUMENT_GENERATE_PROMPT_MAX)).optional(),
    inputs: superFetchInputs.optional(),
    document_text: text().max(DOCUMENT_GENERATE_TEXT_MAX).optional(),
    /** The Prompt and Avatars tools (issue 32): search the web first; the text cites the pages and lists them at its end. */
    searchOnInternet: z.boolean().optional(),
  })
  .superRefine((body, issue) => {
    if (body.kind === 'prompt' && !body.prompt) issue.addIssue({ code: 'custom', path: ['prompt'], message: 'document_instruction_required' });
    if (body.kind === 'avatar') {
      if (!body.avatar_id) issue.addIssue({ code: 'custom', path: ['avatar_id'], message: 'document_avatar_required' });
      if (!body.prompt) issue.addIssue({ code: 'custom', path: ['prompt'], message: 'document_message_required' });
    }
    if (body.kind === 'super_fetch') {
      for (const key of SUPER_FETCH_REQUIRED) {
        if (!body.inputs?.[key]) issue.addIssue({ code: 'custom', path: ['inputs', key], message: 'super_fetch_input_required' });
      }
    }
    if (body.kind === 'template' && !body.template_id) issue.addIssue({ code: 'custom', path: ['template_id'], message: 'document_template_required' });
    if (body.campaign_id && !body.document_id) issue.addIssue({ code: 'custom', path: ['document_id'], message: 'document_campaign_needs_document' });
  });
export type DocumentGenerateRequest = z.input<typeof documentGenerateRequest>;

export const documentGeneration = z.object({
  generation_id: z.number(),
  document_id: z.number().nullable(),
  kind: z.enum(DOCUMENT_GENERATION_KINDS),
  status: z.enum(DOCUMENT_GENERATION_STATUSES),
  /** The markdown written so far (kept when it failed part-way). */
  content: z.string(),
  error_code: z.string().nullable(),
  /** The editor inserted it and saved the document. */
  applied: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DocumentGeneration = z.infer<typeof documentGeneration>;

export const documentGenerationResponse = z.object({ generation: documentGeneration });
export const documentGenerationList = z.object({ generations: z.array(documentGeneration) });
export type DocumentGenerationList = z.infer<typeof documentGenerationList>;

export const documentGenerationParams = z.object({ generationId: idParam() });
export const documentGenerationsQuery = z.object({
  unapplied: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
});

/** The `document_output` event (SocketEvents.documentOutput) to room user-{id}. */
export interface DocumentOutputPayload {
  generation_id: number;
  document_id: number | null;
  /** Text since the previous frame ('' on the last). */
  delta: string;
  done: boolean;
  status: DocumentGenerationStatus;
  error_code: string | null;
  /** The whole markdown, only when done. */
  content?: string;
}

/**
 * The `data` part of POST /avatars/user-message/document-request (spec part 2 §7: "multipart with file and
 * JSON data"): a message to an avatar about the uploaded document, whose text is given as context (§2 "When
 * a document is given as context, its plain text is prefixed to the request…"). The answer is a document
 * generation (`document_output`), optionally written into `document_id`.
 */
export const avatarDocumentRequest = z.object({
  avatar_id: id({ error: 'document_avatar_required' }),
  prompt: text({ error: 'document_message_required' }).trim().min(1, { error: 'document_message_required' }).max(DOCUMENT_GENERATE_PROMPT_MAX),
  document_id: id().nullable().optional(),
});
export type AvatarDocumentRequest = z.input<typeof avatarDocumentRequest>;
