// Who may see and do what with an output (DESIGN.md §7; issue 13 item 5): an output is its author's, in the
// context it was made in (also one made with someone's public avatar). Anything else is a 404.
import { OUTPUT_ACTIONS, type OutputAction } from '@pluma/common/outputs';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outputs } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/http/errors';
import { abilitiesOf } from '../../platform/policy/abilities';

export type OutputRow = typeof outputs.$inferSelect;

export function visibleTo(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  const context = actor.organization ? eq(outputs.organizationId, actor.organization.organizationId) : isNull(outputs.organizationId);
  return and(eq(outputs.userId, actor.user.userId), context) as SQL;
}

export function can(actor: Actor, action: OutputAction, row: OutputRow): boolean {
  const own = row.userId === actor.user.userId && row.organizationId === (actor.organization?.organizationId ?? null);
  if (!own) return false;
  // A pending output is being written: it can be read and deleted, not edited, rated or followed up yet.
  return row.status !== 'pending' || action === 'read' || action === 'delete';
}

export const outputAbilities = (actor: Actor, row: OutputRow) => abilitiesOf(can, OUTPUT_ACTIONS, actor, row);

export async function requireOutput(db: Db, actor: Actor, outputId: number): Promise<OutputRow> {
  const [row] = await db
    .select()
    .from(outputs)
    .where(and(visibleTo(actor), eq(outputs.outputId, outputId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}
