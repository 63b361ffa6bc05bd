// The rows behind an avatar's files: links (avatar_files) to stored files (files feature's table). A file
// is removed with its content once no avatar links it any more (a clone or a combine may share it).
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { avatarFiles, files, knowledgeFiles } from '../../db/schema';
import type { LinkedFile } from './present';

const fileColumns = { fileId: files.fileId, name: files.name, type: files.type, size: files.size, userId: files.userId };
// Each file's indexing status comes along (one join on the knowledge feature's status row, keyed by file id),
// so the files tab shows queued / indexing / ready / failed without a request per file.
const indexColumns = { status: knowledgeFiles.status, progress: knowledgeFiles.progress, failureReason: knowledgeFiles.failureReason };

export async function listLinkedFiles(db: Db, avatarId: number): Promise<LinkedFile[]> {
  return db
    .select({ link: avatarFiles, file: fileColumns, index: indexColumns })
    .from(avatarFiles)
    .innerJoin(files, eq(files.fileId, avatarFiles.fileId))
    .leftJoin(knowledgeFiles, eq(knowledgeFiles.fileId, avatarFiles.fileId))
    .where(eq(avatarFiles.avatarId, avatarId))
    .orderBy(asc(avatarFiles.avatarFileId));
}

export async function findLinkedFile(db: Db, avatarId: number, fileId: number): Promise<(LinkedFile & { storageKey: string; mime: string }) | null> {
  const [row] = await db
    .select({ link: avatarFiles, file: fileColumns, index: indexColumns, storageKey: files.storageKey, mime: files.mime })
    .from(avatarFiles)
    .innerJoin(files, eq(files.fileId, avatarFiles.fileId))
    .leftJoin(knowledgeFiles, eq(knowledgeFiles.fileId, avatarFiles.fileId))
    .where(sql`${avatarFiles.avatarId} = ${avatarId} and ${avatarFiles.fileId} = ${fileId}`)
    .limit(1);
  return row ?? null;
}

/** Deletes those of `fileIds` no avatar links any more, then their stored content. */
export async function discardUnlinkedFiles(ctx: AppContext, fileIds: number[]): Promise<number[]> {
  if (fileIds.length === 0) return [];
  const gone = await ctx.db
    .delete(files)
    .where(sql`${inArray(files.fileId, fileIds)} and not exists (select 1 from ${avatarFiles} where ${avatarFiles.fileId} = ${files.fileId})`)
    .returning({ fileId: files.fileId, storageKey: files.storageKey });
  // A leftover object is harmless (nothing points to it); a row without content would not be.
  for (const row of gone) await ctx.services.storage?.delete(row.storageKey).catch(() => undefined);
  return gone.map((g) => g.fileId);
}
