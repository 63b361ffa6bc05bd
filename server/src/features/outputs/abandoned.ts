// Nothing stays pending forever (as messages/interrupted.ts does for chat answers): outputs a stopped process
// was still writing are marked failed ('interrupted') at the next boot, so the avatar page shows them as
// failed instead of spinning forever, and a thread answer it never wrote is removed so the user can ask again.
import { and, eq, isNull, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outputMessages, outputs } from '../../db/schema';

export const INTERRUPTED_OUTPUT = 'interrupted';

/**
 * Outputs are written in the background of the process that took the request. At the boot of a single node
 * none can still be running (staleAfterMs 0); with several nodes only those untouched for staleAfterMs.
 * Returns how many outputs and thread answers it closed.
 */
export async function closeAbandonedOutputs(db: Db, { staleAfterMs = 0 }: { staleAfterMs?: number } = {}): Promise<{ outputs: number; threadAnswers: number }> {
  const before = new Date(Date.now() - staleAfterMs);
  const stale = (conditions: SQL[], column: typeof outputs.updatedAt | typeof outputMessages.createdAt) => (staleAfterMs > 0 ? [...conditions, lt(column, before)] : conditions);
  const closed = await db
    .update(outputs)
    .set({ status: 'failed', content: '', errorCode: INTERRUPTED_OUTPUT, updatedAt: new Date() })
    .where(and(...stale([eq(outputs.status, 'pending')], outputs.updatedAt)))
    .returning({ outputId: outputs.outputId });
  const removed = await db
    .delete(outputMessages)
    .where(and(...stale([eq(outputMessages.role, 'assistant'), isNull(outputMessages.content)], outputMessages.createdAt)))
    .returning({ id: outputMessages.outputMessageId });
  return { outputs: closed.length, threadAnswers: removed.length };
}
