// Who may do what to a file (spec part 1 §7, part 2 §7). A file the actor may not see is a 404, never a 403.
import { FILE_ACTIONS, type FileAction } from '@pluma/common/files';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { files } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { definePolicy } from '../../platform/policy/define-policy';

type FileRow = typeof files.$inferSelect;

/** Readable: the owner's own files; staff read every file (customer pictures, support). Only the owner
 * replaces or deletes, staff included (they act on customers' files through their features). */
export const filePolicy = definePolicy<FileAction, Pick<FileRow, 'userId'>>({
  actions: FILE_ACTIONS,
  table: files,
  id: files.fileId,
  visibleTo: (actor) => (actor.staffRole ? sql`true` : eq(files.userId, actor.user.userId)),
  can(actor, action, row) {
    const owner = row.userId === actor.user.userId;
    return action === 'read' ? owner || actor.staffRole !== null : owner;
  },
  refuseWith: 'notFound',
});

/** The file `fileId` if the actor may read it, as a query condition. */
export const readableFilesWhere = (actor: Actor, fileId: number): SQL => and(filePolicy.visibleTo(actor), eq(files.fileId, fileId)) as SQL;

/** The file `fileId` if the actor may replace or delete it (the owner's), as a query condition for writes. */
export const ownedFilesWhere = (actor: Actor, fileId: number): SQL => and(eq(files.fileId, fileId), eq(files.userId, actor.user.userId)) as SQL;
