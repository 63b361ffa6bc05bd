// Avatars (spec part 2 §3 "Avatar", §5, §6, §7 "Avatars") and the user's own AI key (spec part 1 §1):
// requests and responses of /api/avatars and /api/users/ai-key, shared by server and web.
import { z } from 'zod';
import { MAX_AVATAR_TOKENS } from './constants';
import { id, idParam, text } from './schema-kit';

/** spec part 2 §9: file names are shortened after 30 characters. */
export const AVATAR_FILE_NAME_SHOWN = 30;
/** The context is the avatar's instructions: at most the avatar's token budget (7500 tokens × 4 characters). */
export const AVATAR_CONTEXT_MAX = MAX_AVATAR_TOKENS * 4;
export const AVATAR_NAME_MAX = 120;
export const AVATAR_DESCRIPTION_MAX = 1000;
/** An editable (.txt) file's text, edited in the browser. */
export const AVATAR_TEXT_FILE_MAX = 200_000;
export const AVATARS_PAGE_SIZE = 24;
export const AVATARS_MAX_PAGE_SIZE = 100;
/** Knowledge files an avatar takes (spec part 2 §5 uploads; Claude's pdf, jpeg, png, gif, webp included). */
export const AVATAR_FILE_TYPES = ['pdf', 'docx', 'pptx', 'txt', 'md', 'csv', 'png', 'jpg', 'gif', 'webp'] as const;
export const AVATAR_FILE_ACCEPT = '.pdf,.docx,.pptx,.txt,.md,.csv,image/png,image/jpeg,image/gif,image/webp';
/** The defaults, filtered out of lists (spec part 2 §3). */
export const AVATAR_KINDS = ['conversation_assistant', 'super_fetch'] as const;
export type AvatarKind = (typeof AVATAR_KINDS)[number];
/** spec part 2 §3: the avatar named conversation_assistant is the default. */
export const DEFAULT_AVATAR_NAME = 'conversation_assistant';

/** A name shown in lists: the first 30 characters and an ellipsis (spec part 2 §9). */
export function shortFileName(name: string): string {
  return name.length > AVATAR_FILE_NAME_SHOWN ? `${name.slice(0, AVATAR_FILE_NAME_SHOWN)}…` : name;
}

const avatarName = text({ error: 'avatar_name_required' }).trim().min(1, { error: 'avatar_name_required' }).max(AVATAR_NAME_MAX);
/** spec part 2 §5: 'The input can't be empty'. */
const avatarContext = text({ error: 'avatar_context_required' }).trim().min(1, { error: 'avatar_context_required' }).max(AVATAR_CONTEXT_MAX);
const avatarDescription = text().trim().max(AVATAR_DESCRIPTION_MAX);

export const avatarIdParams = z.object({ id: idParam() });
export const avatarFileParams = z.object({ id: idParam(), fileId: idParam() });

export const listAvatarsQuery = z.object({
  query: text().trim().max(200).optional(),
  organization_id: idParam().optional(),
  limit: z.coerce.number().int().min(1).max(AVATARS_MAX_PAGE_SIZE).default(AVATARS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  /** The previous page's next_cursor, sent with the next offset: that page is read from it (server/src/db/page-cursor.ts). */
  cursor: text().max(500).optional(),
});
export type ListAvatarsQuery = z.infer<typeof listAvatarsQuery>;

export const createAvatarRequest = z.object({
  name: avatarName,
  description: avatarDescription.optional(),
  context: avatarContext,
  organization_id: idParam().nullable().optional(),
});
export type CreateAvatarRequest = z.input<typeof createAvatarRequest>;

/** PUT /avatars: name, description, context; `public` is for admins only (spec part 2 §6). */
export const updateAvatarRequest = z.object({
  avatar_id: id(),
  name: avatarName.optional(),
  description: avatarDescription.optional(),
  context: avatarContext.optional(),
  public: z.boolean().optional(),
});
export type UpdateAvatarRequest = z.input<typeof updateAvatarRequest>;

/** PUT /avatars/add-context/{id} (spec part 2 §7). */
export const addContextRequest = z.object({ context: avatarContext, name: avatarName.optional() });

/** POST /avatars/clone {avatar_id, context, name} (spec part 2 §5: name required). */
export const cloneAvatarRequest = z.object({ avatar_id: id(), name: avatarName, context: avatarContext.optional() });

/** POST /avatars/combine: the two avatars' contexts and files into a new avatar named `name`. */
export const combineAvatarsRequest = z.object({
  selected_avatar_id: id(),
  target_avatar_id: id(),
  /** Trainings are not combined yet; accepted for the spec's call. */
  target_training_id: id().nullable().optional(),
  name: avatarName,
});

/** PUT /avatars/{id}/files/{fileId}/text: an editable file's new text, saved as .txt. */
/** POST /avatars/{id}/files/text: a new, blank editable .txt file named `name` (issue 30 item 20). */
export const createAvatarTextFileRequest = z.object({
  name: text({ error: 'avatar_name_required' })
    .trim()
    .min(1, { error: 'avatar_name_required' })
    .max(100)
    .transform((name) => name.replace(/\.txt$/i, '').replace(/[\\/]/g, '-'))
    .refine((name) => name.length > 0, { error: 'avatar_name_required' }),
});
export type CreateAvatarTextFileRequest = z.input<typeof createAvatarTextFileRequest>;

export const editAvatarTextRequest = z.object({
  content: z.string().refine((v) => v.trim().length > 0, { error: 'avatar_context_required' }).pipe(text().max(AVATAR_TEXT_FILE_MAX)),
});

/** POST /users/resetDefaultAvatar (admins): the user whose defaults are reset (the admin's own when absent). */
export const resetDefaultAvatarRequest = z.object({ user_id: id().optional() }).nullish();
export const resetDefaultAvatarResponse = z.object({ reset: z.number() });

export const AVATAR_ACTIONS = ['read', 'update', 'delete', 'publish', 'clone', 'add_file', 'refine', 'sync'] as const;
export type AvatarAction = (typeof AVATAR_ACTIONS)[number];
const abilities = <A extends string>(actions: readonly A[]) => z.object(Object.fromEntries(actions.map((a) => [a, z.boolean()])) as Record<A, z.ZodBoolean>);

export const AVATAR_FILE_ACTIONS = ['download', 'edit_text', 'delete'] as const;
export type AvatarFileAction = (typeof AVATAR_FILE_ACTIONS)[number];

/**
 * A file's knowledge indexing (issue 13 item 3: queued, indexing with progress, ready, failed with the
 * reason); 'none' for a file that is never indexed (an image) or was not queued yet.
 */
export const AVATAR_FILE_INDEX_STATUSES = ['none', 'queued', 'indexing', 'ready', 'failed'] as const;
export type AvatarFileIndexStatus = (typeof AVATAR_FILE_INDEX_STATUSES)[number];
export const avatarFileIndex = z.object({
  status: z.enum(AVATAR_FILE_INDEX_STATUSES),
  progress: z.number(),
  /** 'no_text', 'unsupported_type', 'unreadable', 'file_missing', 'embedding_failed', 'index_error'. */
  failure_reason: z.string().nullable(),
});
export type AvatarFileIndex = z.infer<typeof avatarFileIndex>;

export const avatarFile = z.object({
  avatar_file_id: z.number(),
  file_id: z.number(),
  /** The provider-side copy, when one is made; null otherwise. */
  openai_file_id: z.string().nullable(),
  editable: z.boolean(),
  file_data: z.object({ file_id: z.number(), name: z.string(), type: z.string(), size: z.number() }),
  createdAt: z.string(),
  index: avatarFileIndex,
  abilities: abilities(AVATAR_FILE_ACTIONS),
});
export type AvatarFile = z.infer<typeof avatarFile>;

// ---- refine and sync (spec part 2 §2 "refine (the model rewrites the context from files and liked outputs),
// sync (re-index the files)"; §4 avatar actions take up to 15 minutes; §7 POST /avatars/refine {avatar_id}) ----

export const AVATAR_REFINE_STATUSES = ['idle', 'queued', 'running', 'done', 'failed'] as const;
export type AvatarRefineStatus = (typeof AVATAR_REFINE_STATUSES)[number];
export const avatarRefine = z.object({
  status: z.enum(AVATAR_REFINE_STATUSES),
  /** Why the last refine failed: 'ai_key_required', 'no_material', 'empty_answer', or the provider's code. */
  error_code: z.string().nullable(),
  /** The provider's own words when it refused (English, as it sent them). */
  error_message: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type AvatarRefine = z.infer<typeof avatarRefine>;

/** POST /avatars/refine and POST /avatars/sync. */
export const avatarActionRequest = z.object({ avatar_id: id() });

/** Socket event to the avatar's owner (and the admin who asked) when a refine starts and ends. */
export const AVATAR_REFINE_EVENT = 'avatar_refine';
export interface AvatarRefineEventPayload {
  avatar_id: number;
  refine: AvatarRefine;
}

export const avatar = z.object({
  avatar_id: z.number(),
  assistant_id: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  context: z.string(),
  public: z.boolean(),
  user_id: z.number(),
  organization_id: z.number().nullable(),
  /** spec part 2 §3: the Super Fetch avatar's flag. */
  super_fetch_assistant: z.boolean(),
  kind: z.enum(AVATAR_KINDS).nullable(),
  /** The author's name, for the community list. */
  author: z.object({ name: z.string(), last_name: z.string() }),
  files_count: z.number(),
  /** The last refine, for whoever may refine the avatar (owner or admin); null for others. */
  refine: avatarRefine.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities: abilities(AVATAR_ACTIONS),
});
export type Avatar = z.infer<typeof avatar>;

export const avatarWithFiles = avatar.extend({ avatar_files: z.array(avatarFile) });
export type AvatarWithFiles = z.infer<typeof avatarWithFiles>;

export const avatarList = z.object({
  avatars: z.array(avatar),
  total: z.number(),
  /** true: there are more than `total`, which is then the cap (shown as "1,000+"; server/src/db/capped-count.ts). */
  total_capped: z.boolean().optional(),
  /** Send as `cursor` with the next offset (faster deep pages); null on the last page. */
  next_cursor: z.string().nullable().optional(),
});
export type AvatarList = z.infer<typeof avatarList>;

export const avatarFileList = z.object({ avatar_files: z.array(avatarFile) });
export type AvatarFileList = z.infer<typeof avatarFileList>;

export const deletedResponse = z.object({ deleted: z.literal(true) });

// ---- the user's own AI key (spec part 1 §1, §2 Settings) ----

export const AI_KEY_PROVIDERS = ['openai'] as const;
/** What the key looks like: provider keys are 20–300 visible characters without spaces. */
export const aiKeyValue = text({ error: 'ai_key_invalid' })
  .trim()
  .min(20, { error: 'ai_key_invalid' })
  .max(300, { error: 'ai_key_invalid' })
  .regex(/^[\x21-\x7e]+$/, { error: 'ai_key_invalid' });

export const saveAiKeyRequest = z.object({ api_key: aiKeyValue });
export type SaveAiKeyRequest = z.input<typeof saveAiKeyRequest>;

/** The key as the owner sees it: masked to the last 4 characters, never the key itself. */
export const aiKeyStatus = z.object({
  configured: z.boolean(),
  provider: z.enum(AI_KEY_PROVIDERS).nullable(),
  /** '••••abcd' or null. */
  masked: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type AiKeyStatus = z.infer<typeof aiKeyStatus>;

/** POST /users/ai-key/test: a typed key (before saving) or, without one, the saved key. */
export const testAiKeyRequest = z.object({ api_key: aiKeyValue.optional() }).nullish();
export const aiKeyTestResult = z.object({
  ok: z.boolean(),
  provider: z.enum(AI_KEY_PROVIDERS),
  status: z.number().nullable(),
  code: z.string().nullable(),
  message: z.string().nullable(),
});
export type AiKeyTestResult = z.infer<typeof aiKeyTestResult>;

// ---- the spec's path-addressed file calls (spec part 2 §7 "Avatars": "POST /avatars/add-file/{a}/{b}
// (multipart); POST /avatars/add-editable-file/{a}/{b} (multipart); PUT /avatars/editable-file/{file_id}
// (multipart); … DELETE /avatars/file/{fileId}/{openaiFileId}/{assistantId}"). Our reading of {a}/{b}: the
// avatar and its provider-side assistant (§3 "Avatar: avatar_id, assistant_id, …, avatar_files[]
// (openai_file_id, …)"), the pair the delete call names too. They sit beside /avatars/add-file/{id} and
// /avatars/{id}/files/{fileId} and call the same services. ----

/**
 * What stands in a path for a provider id the record does not have: a client interpolating a missing
 * assistant_id or openai_file_id sends 'null' (or 'undefined').
 */
export const ABSENT_PROVIDER_REFS = ['null', 'undefined'] as const;

/** A provider id in a path (an assistant 'asst_…', a file 'file-…'), or one of ABSENT_PROVIDER_REFS. */
export const providerRef = () => text().min(1, { error: 'invalid_id' }).max(128, { error: 'invalid_id' }).regex(/^[\w.:-]+$/, { error: 'invalid_id' });

/** Whether a path's provider id names the record's: equal to it, or an absent-id stand-in when it has none. */
export function providerRefMatches(stored: string | null, given: string): boolean {
  return stored ? stored === given : (ABSENT_PROVIDER_REFS as readonly string[]).includes(given);
}

/** POST /avatars/add-file/{id}/{assistant_id} and /avatars/add-editable-file/{id}/{assistant_id}. */
export const avatarAssistantParams = z.object({ id: idParam(), assistant_id: providerRef() });
/** PUT /avatars/editable-file/{file_id} (the stored file's id, file_data.file_id). */
export const editableFileParams = z.object({ file_id: idParam() });
/** The form's fields beside the .txt file: the avatar whose link is edited, when more than one links it. */
export const editableFileForm = z.object({ avatar_id: idParam().optional() });
/** DELETE /avatars/file/{fileId}/{openaiFileId}/{assistantId}. */
export const avatarFileRefParams = z.object({ fileId: idParam(), openaiFileId: providerRef(), assistantId: providerRef() });
