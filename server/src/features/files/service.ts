// Files (spec part 1 §7, part 2 §7): store an upload, read it back, replace or delete it. Other features
// (avatars, conversations, profile pictures) call storeUpload() for their own multipart endpoints.
import { ErrorIds } from '@pluma/common/errors';
import { isImageFileType } from '@pluma/common/files';
import { and, eq } from 'drizzle-orm';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AppContext, Storage } from '../../context';
import { files } from '../../db/schema';
import type { Actor } from '../../platform/auth/guard';
import { invalidateUser } from '../../platform/auth/invalidation';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import { StorageNotFoundError } from '../../platform/storage';
import { ownedFilesWhere, readableFilesWhere } from './policy';
import { sniffUpload, type SniffedFile } from './sniff';

export type FileRow = typeof files.$inferSelect;

export interface Upload {
  /** The name the browser sent; only used for display and the download name. */
  fileName: string;
  bytes: Buffer;
}

const unsupportedFile = () => new AppError(400, ErrorIds.unsupportedFile, 'unsupported_file');
const SYNONYMS: Record<string, string[]> = { jpg: ['jpg', 'jpeg'], mov: ['mov', 'qt'] };

function storageOf(ctx: AppContext): Storage {
  if (!ctx.services.storage) throw new Error('storage service is not configured');
  return ctx.services.storage;
}

/** A display name without folders or control characters, ending in the extension of what the file really is. */
export function safeFileName(name: string, type: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '')
    .replace(/[\p{Cc}\p{Cf}"]/gu, '')
    .trim()
    .slice(0, 200);
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  if ((SYNONYMS[type] ?? [type]).includes(ext)) return base;
  return `${base || 'file'}.${type}`;
}

async function checkedType(upload: Upload, mustBeImage: boolean): Promise<SniffedFile> {
  const sniffed = await sniffUpload(upload.bytes, upload.fileName);
  if (!sniffed) throw unsupportedFile();
  if (mustBeImage && !isImageFileType(sniffed.type)) throw badRequest('file_public_images_only');
  return sniffed;
}

const newStorageKey = () => `uploads/${randomUUID()}`;

/** Checks and stores an upload owned by the actor. Public images get a random, unguessable name. */
export async function storeUpload(options: { ctx: AppContext; actor: Actor; upload: Upload; isPublic?: boolean }): Promise<FileRow> {
  const { ctx, actor, upload, isPublic = false } = options;
  const sniffed = await checkedType(upload, isPublic);
  const storage = storageOf(ctx);
  const storageKey = newStorageKey();
  await storage.put(storageKey, upload.bytes, sniffed.mime);
  try {
    const [row] = await ctx.db
      .insert(files)
      .values({
        userId: actor.user.userId,
        // Uploaded while an organization is active: recorded as that organization's (resolved, DESIGN.md §7).
        organizationId: actor.organization?.organizationId ?? null,
        name: safeFileName(upload.fileName, sniffed.type),
        type: sniffed.type,
        mime: sniffed.mime,
        size: upload.bytes.length,
        storageKey,
        publicName: isPublic ? randomBytes(18).toString('base64url') : null,
      })
      .returning();
    return row;
  } catch (err) {
    await storage.delete(storageKey).catch(() => undefined);
    throw err;
  }
}

async function openStored(ctx: AppContext, row: FileRow): Promise<{ file: FileRow; body: Readable }> {
  try {
    return { file: row, body: await storageOf(ctx).get(row.storageKey) };
  } catch (err) {
    // The row outlived its content (a failed delete or a lost disk): the file is gone for the reader too.
    if (err instanceof StorageNotFoundError) throw notFound();
    throw err;
  }
}

/** GET /api/files/{id}: the owner's file, or any file for staff. */
export async function openFile(options: { ctx: AppContext; actor: Actor; fileId: number }) {
  const { ctx, actor, fileId } = options;
  const [row] = await ctx.db.select().from(files).where(readableFilesWhere(actor, fileId)).limit(1);
  if (!row) throw notFound();
  return openStored(ctx, row);
}

/**
 * GET /api/files/{name}.{type}: only files uploaded as public images answer to a name.
 * @contract-exception public: anyone may open a public image, signed in or not.
 */
export async function openPublicFile(options: { ctx: AppContext; publicName: string; type: string }) {
  const { ctx, publicName, type } = options;
  const [row] = await ctx.db
    .select()
    .from(files)
    .where(and(eq(files.publicName, publicName), eq(files.type, type)))
    .limit(1);
  if (!row || !isImageFileType(row.type)) throw notFound();
  return openStored(ctx, row);
}

/** PUT /api/files/{id}: new content under the same id (and the same public name for a public image). */
export async function replaceFile(options: { ctx: AppContext; actor: Actor; fileId: number; upload: Upload }): Promise<FileRow> {
  const { ctx, actor, fileId, upload } = options;
  const [current] = await ctx.db.select().from(files).where(ownedFilesWhere(actor, fileId)).limit(1);
  if (!current) throw notFound();
  const sniffed = await checkedType(upload, current.publicName != null);
  const storage = storageOf(ctx);
  // New content goes under a new key: if the row update fails, the old file is still whole.
  const storageKey = newStorageKey();
  await storage.put(storageKey, upload.bytes, sniffed.mime);
  let row: FileRow | undefined;
  try {
    [row] = await ctx.db
      .update(files)
      .set({
        name: safeFileName(upload.fileName, sniffed.type),
        type: sniffed.type,
        mime: sniffed.mime,
        size: upload.bytes.length,
        storageKey,
        updatedAt: new Date(),
      })
      .where(ownedFilesWhere(actor, fileId))
      .returning();
  } catch (err) {
    await storage.delete(storageKey).catch(() => undefined);
    throw err;
  }
  if (!row) {
    await storage.delete(storageKey).catch(() => undefined);
    throw notFound();
  }
  await storage.delete(current.storageKey).catch(() => undefined);
  // The owner's picture URL (GET /api/users) names the file type (platform/auth/invalidation.ts).
  if (row.userId != null) invalidateUser(row.userId);
  return row;
}

/** DELETE /api/files/{id}: the owner removes the row, then its content. */
export async function deleteFile(options: { ctx: AppContext; actor: Actor; fileId: number }): Promise<void> {
  const { ctx, actor, fileId } = options;
  const [row] = await ctx.db.delete(files).where(ownedFilesWhere(actor, fileId)).returning();
  if (!row) throw notFound();
  if (row.userId != null) invalidateUser(row.userId);
  // A leftover object is harmless (nothing points to it); a missing row with content would not be.
  await storageOf(ctx).delete(row.storageKey).catch(() => undefined);
}
