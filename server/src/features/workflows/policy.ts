// Who may see and do what with workflows and user workflows (DESIGN.md §7; docs/decisions.md "Workflows").
// - A workflow is built by staff admins from public templates and offered to every user with access, in
//   every context (Personal and organizations alike, like public templates). Only staff admins write them.
// - A user workflow is private to its owner in the context it was started in (Personal, or that
//   organization), like a conversation. Anything else is a 404 on every route, never a 403.
import { USER_WORKFLOW_ACTIONS, WORKFLOW_ACTIONS, type UserWorkflowAction, type WorkflowAction } from '@pluma/common/workflows';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { userWorkflows, workflows } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { forbidden, notFound } from '../../platform/http/errors';
import { abilitiesOf } from '../../platform/policy/abilities';

export type WorkflowRow = typeof workflows.$inferSelect;
export type UserWorkflowRow = typeof userWorkflows.$inferSelect;

export const isAdmin = (actor: Pick<Actor, 'staffRole'>) => actor.staffRole === 'admin';

export function canWorkflow(actor: Actor, action: WorkflowAction, _row: WorkflowRow): boolean {
  return action === 'start' ? true : isAdmin(actor);
}

export const workflowAbilities = (actor: Actor, row: WorkflowRow) => abilitiesOf(canWorkflow, WORKFLOW_ACTIONS, actor, row);

/** The workflow (every workflow is visible to every signed-in user), 404 if absent, 403 for a write by a non-admin. */
export async function requireWorkflow(db: Db | Tx, actor: Actor, workflowId: number, action: WorkflowAction = 'start'): Promise<WorkflowRow> {
  const [row] = await db.select().from(workflows).where(eq(workflows.workflowId, workflowId)).limit(1);
  if (!row) throw notFound();
  if (!canWorkflow(actor, action, row)) throw forbidden();
  return row;
}

/** The scope of every user workflow query: the actor's own in the context of this request. */
export function userWorkflowsVisibleTo(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  const context = actor.organization ? eq(userWorkflows.organizationId, actor.organization.organizationId) : isNull(userWorkflows.organizationId);
  return and(eq(userWorkflows.userId, actor.user.userId), context) as SQL;
}

/** Only its owner, in its context, acts on a user workflow (the only kind a scoped query returns). */
export function canUserWorkflow(actor: Actor, _action: UserWorkflowAction, row: UserWorkflowRow): boolean {
  return row.userId === actor.user.userId && row.organizationId === (actor.organization?.organizationId ?? null);
}

export const userWorkflowAbilities = (actor: Actor, row: UserWorkflowRow) => abilitiesOf(canUserWorkflow, USER_WORKFLOW_ACTIONS, actor, row);

export async function requireUserWorkflow(db: Db | Tx, actor: Actor, userWorkflowId: number, action: UserWorkflowAction = 'edit'): Promise<UserWorkflowRow> {
  const [row] = await db
    .select()
    .from(userWorkflows)
    .where(and(userWorkflowsVisibleTo(actor), eq(userWorkflows.userWorkflowId, userWorkflowId)))
    .limit(1);
  if (!row || !canUserWorkflow(actor, action, row)) throw notFound();
  return row;
}
