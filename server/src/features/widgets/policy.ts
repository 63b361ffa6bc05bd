// Who may see and do what with a chat widget (DESIGN.md §7). Widgets are Personal only (spec part 2 §2 "Chat
// Widget (not in organization scope)"): an owner sees and changes their own, nobody else sees any — staff
// included, since a widget holds its visitors' conversations. Anything else is a 404 on every route.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { widgets } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, notFound } from '../../platform/http/errors';
import { abilitiesOf } from '../../platform/policy/abilities';

export type WidgetRow = typeof widgets.$inferSelect;

export const WIDGET_ACTIONS = ['update', 'delete'] as const;
export type WidgetAction = (typeof WIDGET_ACTIONS)[number];

/** Spec part 2 §2: the Chat Widget tab is not in organization scope; every route there is a 404. */
export function assertPersonal(actor: Pick<Actor, 'organization'>): void {
  if (actor.organization) throw new AppError(404, 'not_found', 'widget_not_in_organization');
}

/** The scope of every widget read and write: the actor's own, in Personal scope only. */
export function visibleWidgets(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  if (actor.organization) return sql`false`;
  return eq(widgets.userId, actor.user.userId);
}

export function can(actor: Actor, _action: WidgetAction, row: WidgetRow): boolean {
  return !actor.organization && row.userId === actor.user.userId;
}

export const widgetAbilities = (actor: Actor, row: WidgetRow) => abilitiesOf(can, WIDGET_ACTIONS, actor, row);

/** The widget if the actor sees it (404 otherwise) and may take `action` on it. */
export async function requireWidget(db: Db | Tx, actor: Actor, widgetId: number, action?: WidgetAction): Promise<WidgetRow> {
  const [row] = await db
    .select()
    .from(widgets)
    .where(and(visibleWidgets(actor), eq(widgets.widgetId, widgetId)))
    .limit(1);
  if (!row || (action && !can(actor, action, row))) throw notFound();
  return row;
}
