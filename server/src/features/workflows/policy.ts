// Who may see and do what with workflows and user workflows (DESIGN.md §7; docs/decisions.md "Workflows").
// - A workflow is built by staff admins from public templates and offered to every user with access, in
//   every context (Personal and organizations alike, like public templates). Only staff admins write them.
// - A user workflow is private to its owner in the context it was started in (Personal, or that
//   organization), like a conversation. Anything else is a 404 on every route, never a 403.
import { USER_WORKFLOW_ACTIONS, WORKFLOW_ACTIONS, type UserWorkflowAction, type WorkflowAction } from '@pluma/common/workflows';
import { sql } from 'drizzle-orm';
import { userWorkflows, workflows } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { definePolicy, isOwnInContext, ownInContext } from '../../platform/policy/define-policy';

export type WorkflowRow = typeof workflows.$inferSelect;
export type UserWorkflowRow = typeof userWorkflows.$inferSelect;

const isAdmin = (actor: Pick<Actor, 'staffRole'>) => actor.staffRole === 'admin';

/** Every workflow is visible to every signed-in user; only staff admins write them (403 for others). */
export const workflowPolicy = definePolicy<WorkflowAction, WorkflowRow>({
  actions: WORKFLOW_ACTIONS,
  table: workflows,
  id: workflows.workflowId,
  visibleTo: () => sql`true`,
  can: (actor, action) => action === 'start' || isAdmin(actor),
});

/** A user workflow: its owner's, in its context (the only kind a scoped query returns). */
export const userWorkflowPolicy = definePolicy<UserWorkflowAction, UserWorkflowRow>({
  actions: USER_WORKFLOW_ACTIONS,
  table: userWorkflows,
  id: userWorkflows.userWorkflowId,
  visibleTo: ownInContext(userWorkflows),
  can: (actor, _action, row) => isOwnInContext(actor, row),
  refuseWith: 'notFound',
});
