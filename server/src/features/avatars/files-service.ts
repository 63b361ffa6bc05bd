// An avatar's files (spec part 2 §2 "files tabs (files, editable files) with upload, download, delete and
// edit", §5 "editable files .txt only", §7 add-file, add-editable-file, editable-file, file delete).
// Uploads are stored by the files feature (type sniffed, owner recorded); the avatar is checked before an
// upload is read, so another user's id stores nothing.
import { AVATAR_FILE_TYPES, providerRefMatches } from '@pluma/common/avatars';
import { ErrorIds } from '@pluma/common/errors';
import { and, asc, eq } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context';
import { avatarFiles, avatars } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, notFound } from '../../platform/http/errors';
import { StorageNotFoundError } from '../../platform/storage';
import { storeUpload, type Upload } from '../files';
import { isKnowledgeFileType } from '../ingestion';
import { queueFileIndexing } from '../knowledge';
import { discardUnlinkedFiles, findLinkedFile, listLinkedFiles } from './files-store';
import { avatarFilePolicy, avatarPolicy, type AvatarRow } from './policy';
import type { LinkedFile } from './present';

/** A file of an avatar: the link, the stored file and its indexing, with the avatar (its abilities need it). */
export type AvatarFileOf = LinkedFile & { avatar: AvatarRow };

const wrongType = (messageKey: 'avatar_file_type' | 'avatar_text_file_only') => new AppError(400, ErrorIds.unsupportedFile, messageKey);

const touch = (ctx: AppContext, avatarId: number) => ctx.db.update(avatars).set({ updatedAt: new Date() }).where(eq(avatars.avatarId, avatarId));

/** GET /avatars/{id}/files: a readable avatar's files (public ones too: names, never bytes). */
export async function listAvatarFiles({ ctx, actor, avatarId }: { ctx: AppContext; actor: Actor; avatarId: number }): Promise<{ avatar: AvatarRow; files: LinkedFile[] }> {
  const avatar = await avatarPolicy.require(ctx.db, actor, avatarId);
  return { avatar, files: await listLinkedFiles(ctx.db, avatar.avatarId) };
}

/**
 * Checks the avatar may take files (before the upload is read). `assistantRef`: the spec's
 * /avatars/add-file/{avatar_id}/{assistant_id} names the avatar's provider assistant too; another is a 404.
 */
export async function requireAvatarForUpload({ ctx, actor, avatarId, assistantRef }: { ctx: AppContext; actor: Actor; avatarId: number; assistantRef?: string }) {
  const avatar = await avatarPolicy.require(ctx.db, actor, avatarId, 'add_file');
  if (assistantRef !== undefined && !providerRefMatches(avatar.assistantId, assistantRef)) throw notFound();
  return avatar;
}

/**
 * The avatar whose link to stored file `fileId` a path-addressed call means (spec part 2 §7 PUT
 * /avatars/editable-file/{file_id}, DELETE /avatars/file/{fileId}/{openaiFileId}/{assistantId}): among the
 * avatars the actor sees that link the file — narrowed by `avatarId`, the assistant and the provider file
 * when given — one the actor may change first (a clone of theirs before someone's public original that
 * shares the file), then the oldest link. None is a 404; the services then authorize the action itself.
 */
export async function findAvatarOfFile(options: {
  ctx: AppContext;
  actor: Actor;
  fileId: number;
  avatarId?: number;
  assistantRef?: string;
  openaiFileRef?: string;
}): Promise<number> {
  const { ctx, actor, fileId, avatarId, assistantRef, openaiFileRef } = options;
  const rows = await ctx.db
    .select({ avatar: avatars })
    .from(avatarFiles)
    .innerJoin(avatars, eq(avatars.avatarId, avatarFiles.avatarId))
    .where(and(eq(avatarFiles.fileId, fileId), avatarPolicy.visibleTo(actor), avatarId === undefined ? undefined : eq(avatarFiles.avatarId, avatarId)))
    .orderBy(asc(avatarFiles.avatarFileId))
    .limit(50);
  const matching = rows
    .map((r) => r.avatar)
    .filter((avatar) => avatarPolicy.can(actor, 'read', avatar))
    .filter((avatar) => assistantRef === undefined || providerRefMatches(avatar.assistantId, assistantRef))
    // No provider-side copy of a file is kept (avatar_files presents openai_file_id null): only an absent-id stand-in names it.
    .filter(() => openaiFileRef === undefined || providerRefMatches(null, openaiFileRef));
  const chosen = matching.find((avatar) => avatarPolicy.can(actor, 'update', avatar)) ?? matching[0];
  if (!chosen) throw notFound();
  return chosen.avatarId;
}

/** POST /avatars/add-file/{id} and /avatars/add-editable-file/{id} (editable: .txt only). */
export async function addAvatarFile(options: { ctx: AppContext; actor: Actor; avatarId: number; upload: Upload; editable: boolean }): Promise<AvatarFileOf> {
  const { ctx, actor, avatarId, upload, editable } = options;
  const avatar = await requireAvatarForUpload({ ctx, actor, avatarId });
  if (editable && !/\.txt$/i.test(upload.fileName)) throw wrongType('avatar_text_file_only');
  const stored = await storeUpload({ ctx, actor, upload });
  const allowed = editable ? stored.type === 'txt' : (AVATAR_FILE_TYPES as readonly string[]).includes(stored.type);
  if (!allowed) {
    await discardUnlinkedFiles(ctx, [stored.fileId]);
    throw wrongType(editable ? 'avatar_text_file_only' : 'avatar_file_type');
  }
  const [link] = await ctx.db.insert(avatarFiles).values({ avatarId: avatar.avatarId, fileId: stored.fileId, editable }).returning();
  await touch(ctx, avatar.avatarId);
  // Text is extracted and indexed in a background job, never in this request (issue 13 item 3).
  const index = isKnowledgeFileType(stored.type) ? await queueFileIndexing({ ctx, fileId: stored.fileId }) : null;
  return { avatar, link, file: stored, index };
}

/**
 * POST /avatars/{id}/files/text: a new, blank editable .txt file (issue 30 item 20: written in the app instead
 * of uploaded). Stored as one line break (an empty upload is no file) and not indexed until it has text: the
 * first edit (editAvatarFileText) indexes it.
 */
export async function createAvatarTextFile(options: { ctx: AppContext; actor: Actor; avatarId: number; name: string }): Promise<AvatarFileOf> {
  const { ctx, actor, avatarId, name } = options;
  const avatar = await requireAvatarForUpload({ ctx, actor, avatarId });
  const stored = await storeUpload({ ctx, actor, upload: { fileName: `${name}.txt`, bytes: Buffer.from('\n', 'utf8') } });
  if (stored.type !== 'txt') {
    await discardUnlinkedFiles(ctx, [stored.fileId]);
    throw wrongType('avatar_text_file_only');
  }
  const [link] = await ctx.db.insert(avatarFiles).values({ avatarId: avatar.avatarId, fileId: stored.fileId, editable: true }).returning();
  await touch(ctx, avatar.avatarId);
  return { avatar, link, file: stored, index: null };
}

/**
 * GET /avatars/{id}/files/{fileId}: the bytes, for whoever edits the avatar and owns the file (or an admin).
 * A public avatar's reader, or another user, gets a 404: the file is not theirs to have.
 */
export async function openAvatarFile(options: { ctx: AppContext; actor: Actor; avatarId: number; fileId: number }) {
  const { ctx, actor, avatarId, fileId } = options;
  const avatar = await avatarPolicy.require(ctx.db, actor, avatarId);
  const linked = await findLinkedFile(ctx.db, avatar.avatarId, fileId);
  if (!linked || !avatarFilePolicy.can(actor, 'download', { avatar, link: linked.link, fileOwnerId: linked.file.userId })) throw notFound();
  let body: Readable;
  try {
    if (!ctx.services.storage) throw new Error('storage service is not configured');
    body = await ctx.services.storage.get(linked.storageKey);
  } catch (err) {
    if (err instanceof StorageNotFoundError) throw notFound();
    throw err;
  }
  return { file: { name: linked.file.name, mime: linked.mime, size: linked.file.size }, body };
}

async function requireLinkFor(ctx: AppContext, actor: Actor, avatarId: number, fileId: number, action: 'edit_text' | 'delete') {
  const avatar = await avatarPolicy.require(ctx.db, actor, avatarId, 'update');
  const linked = await findLinkedFile(ctx.db, avatar.avatarId, fileId);
  if (!linked) throw notFound();
  if (!avatarFilePolicy.can(actor, action, { avatar, link: linked.link, fileOwnerId: linked.file.userId })) throw wrongType('avatar_text_file_only');
  return { avatar, linked };
}

/**
 * PUT /avatars/{id}/files/{fileId}/text: an editable file's new text, saved as .txt (spec part 2 §2). The new
 * text is a new file of the editor linked in place of the old one (copy-on-write: a clone sharing the old
 * file keeps it); the old file goes when nothing links it.
 */
export async function editAvatarFileText(options: { ctx: AppContext; actor: Actor; avatarId: number; fileId: number; content: string }): Promise<AvatarFileOf> {
  const { ctx, actor, avatarId, fileId, content } = options;
  const { avatar, linked } = await requireLinkFor(ctx, actor, avatarId, fileId, 'edit_text');
  const baseName = linked.file.name.replace(/\.[^.]*$/, '') || 'file';
  const stored = await storeUpload({ ctx, actor, upload: { fileName: `${baseName}.txt`, bytes: Buffer.from(content, 'utf8') } });
  if (stored.type !== 'txt') {
    await discardUnlinkedFiles(ctx, [stored.fileId]);
    throw wrongType('avatar_text_file_only');
  }
  const [link] = await ctx.db
    .update(avatarFiles)
    .set({ fileId: stored.fileId })
    .where(and(eq(avatarFiles.avatarFileId, linked.link.avatarFileId), eq(avatarFiles.avatarId, avatar.avatarId)))
    .returning();
  await discardUnlinkedFiles(ctx, [linked.file.fileId]);
  await touch(ctx, avatar.avatarId);
  const index = await queueFileIndexing({ ctx, fileId: stored.fileId });
  return { avatar, link, file: stored, index };
}

/**
 * POST /avatars/{id}/files/{fileId}/retry: reads and indexes the file again (issue 27: a failed or interrupted
 * file can be retried). Whoever may edit the avatar; a file the avatar does not link is a 404.
 */
export async function retryAvatarFileIndexing(options: { ctx: AppContext; actor: Actor; avatarId: number; fileId: number }): Promise<AvatarFileOf> {
  const { ctx, actor, avatarId, fileId } = options;
  const avatar = await avatarPolicy.require(ctx.db, actor, avatarId, 'update');
  const linked = await findLinkedFile(ctx.db, avatar.avatarId, fileId);
  if (!linked) throw notFound();
  if (!isKnowledgeFileType(linked.file.type)) throw wrongType('avatar_file_type');
  const index = await queueFileIndexing({ ctx, fileId: linked.file.fileId, language: actor.user.lang ?? undefined });
  return { avatar, link: linked.link, file: linked.file, index };
}

/** DELETE /avatars/{id}/files/{fileId}: unlinks the file; it is deleted when no other avatar links it. */
export async function deleteAvatarFile(options: { ctx: AppContext; actor: Actor; avatarId: number; fileId: number }): Promise<void> {
  const { ctx, actor, avatarId, fileId } = options;
  const { avatar, linked } = await requireLinkFor(ctx, actor, avatarId, fileId, 'delete');
  await ctx.db.delete(avatarFiles).where(eq(avatarFiles.avatarFileId, linked.link.avatarFileId));
  await discardUnlinkedFiles(ctx, [linked.file.fileId]);
  await touch(ctx, avatar.avatarId);
  // A deleted file's passages go with it (knowledge rows cascade from files); a file still linked to another
  // avatar stays indexed for that one only (retrieval is by the avatar's own file ids).
}
