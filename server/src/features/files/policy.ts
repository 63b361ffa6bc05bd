// Who may do what to a file (spec part 1 §7, part 2 §7). A file the actor may not see is a 404, never a 403.
import { and, eq, type SQL } from 'drizzle-orm';
import { files } from '../../db/schema';
import type { Actor } from '../../platform/auth/guard';

/** Readable: the owner's own files; staff read every file (customer pictures, support). */
export function readableFilesWhere(actor: Actor, fileId: number): SQL {
  const byId = eq(files.fileId, fileId);
  return actor.staffRole ? byId : (and(byId, eq(files.userId, actor.user.userId)) as SQL);
}

/** Replaceable and deletable: the owner only, staff included (they act on customers' files through their features). */
export function ownedFilesWhere(actor: Actor, fileId: number): SQL {
  return and(eq(files.fileId, fileId), eq(files.userId, actor.user.userId)) as SQL;
}
