// Who may see and do what with a chat widget (DESIGN.md §7). Widgets are Personal only (spec part 2 §2 "Chat
// Widget (not in organization scope)"): an owner sees and changes their own, nobody else sees any — staff
// included, since a widget holds its visitors' conversations. Anything else is a 404 on every route.
import { WIDGET_ACTIONS, type WidgetAction } from '@pluma/common/widgets';
import { eq, sql } from 'drizzle-orm';
import { widgets } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError } from '../../platform/http/errors';
import { definePolicy } from '../../platform/policy/define-policy';

export type WidgetRow = typeof widgets.$inferSelect;

/** Spec part 2 §2: the Chat Widget tab is not in organization scope; every route there is a 404. */
export function assertPersonal(actor: Pick<Actor, 'organization'>): void {
  if (actor.organization) throw new AppError(404, 'not_found', 'widget_not_in_organization');
}

export const widgetPolicy = definePolicy<WidgetAction, WidgetRow>({
  actions: WIDGET_ACTIONS,
  table: widgets,
  id: widgets.widgetId,
  /** The scope of every widget read and write: the actor's own, in Personal scope only. */
  visibleTo: (actor) => (actor.organization ? sql`false` : eq(widgets.userId, actor.user.userId)),
  can: (actor, _action, row) => !actor.organization && row.userId === actor.user.userId,
  refuseWith: 'notFound',
});
