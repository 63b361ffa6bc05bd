// Stop generating (issue 30 item 1): the actor's Stop ends an answer being written, wherever it runs. The
// generation (generation.ts) keeps its text so far, is charged for the words it wrote (the rest of its hold
// released) and ends as done with finish_reason 'stopped'; its end event reaches every open tab. Only the
// answer's author, in its own context, may stop it (messages/policy.ts): anyone else gets a 404.
import type { AppContext } from '../../context';
import type { Actor } from '../../platform/auth/guard';
import { messageKey } from '../../platform/ai/generation-registry';
import { requestStop } from '../../platform/ai/stops';
import { ACTIVE_STATUSES } from './finalize';
import { requireMessage } from './policy';
import type { MessageRow } from './present';

const isActive = (row: MessageRow) => (ACTIVE_STATUSES as readonly string[]).includes(row.status);

/**
 * Stops the answer `messageId` and returns it. Idempotent: a message that is not being written (finished,
 * failed, a prompt) is returned as it is. When the generation ran in this process the row returned is final;
 * when it runs on another node that node is told, and the row is returned as it is now (its end arrives
 * over the real-time channel).
 */
export async function stopMessage({ actor, ctx, messageId }: { actor: Actor; ctx: AppContext; messageId: number }): Promise<MessageRow> {
  const row = await requireMessage(ctx.db, actor, messageId);
  if (!isActive(row)) return row;
  await requestStop(ctx, messageKey(row.messageId));
  return requireMessage(ctx.db, actor, row.messageId);
}
