// Who may do what to a file (spec part 1 §7, part 2 §7). A file the actor may not see is a 404, never a 403.
import { FILE_ACTIONS, type FileAction } from '@pluma/common/files';
import { and, eq, type SQL } from 'drizzle-orm';
import { files } from '../../db/schema';
import type { Actor } from '../../platform/auth/guard';
import { abilitiesOf } from '../../platform/policy/abilities';

/** Readable: the owner's own files; staff read every file (customer pictures, support). */
export function readableFilesWhere(actor: Actor, fileId: number): SQL {
  const byId = eq(files.fileId, fileId);
  return actor.staffRole ? byId : (and(byId, eq(files.userId, actor.user.userId)) as SQL);
}

/** Replaceable and deletable: the owner only, staff included (they act on customers' files through their features). */
export function ownedFilesWhere(actor: Actor, fileId: number): SQL {
  return and(eq(files.fileId, fileId), eq(files.userId, actor.user.userId)) as SQL;
}

/** The same rules for one row: staff read every file; only the owner replaces or deletes (the queries above). */
export function can(actor: Actor, action: FileAction, row: { userId: number | null }): boolean {
  const owner = row.userId === actor.user.userId;
  return action === 'read' ? owner || actor.staffRole !== null : owner;
}

export const fileAbilities = (actor: Actor, row: { userId: number | null }) => abilitiesOf(can, FILE_ACTIONS, actor, row);
