// Workflows (spec part 2 §2 "Workflows", §3 "Workflow", "User workflow"; issue 14 item 3). A workflow is an
// ordered list of public templates built by staff admins and offered to every user; a user workflow is one
// user's run of it: the field values (the spec's comma-separated key=value string) and one conversation per
// step. docs/decisions.md "Workflows".
import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';
import { conversations } from './chat';
import { templates } from './templates';

export const workflows = pgTable(
  'workflows',
  {
    workflowId: serial('workflow_id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Comma-separated, as the spec has conversation tags. */
    tags: text('tags').notNull().default(''),
    /** The admin who built it (kept for the audit; null once that account is gone). */
    createdBy: integer('created_by').references(() => users.userId, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('workflows_created_idx').on(t.createdAt)],
);

/** A workflow's templates in order (position from 0). A deleted template leaves the workflow without that step. */
export const workflowTemplates = pgTable(
  'workflow_templates',
  {
    workflowId: integer('workflow_id')
      .notNull()
      .references(() => workflows.workflowId, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.templateId, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.workflowId, t.position] }), index('workflow_templates_template_idx').on(t.templateId)],
);

/**
 * One user's run of a workflow, private to its owner in the context it was made in (Personal or an
 * organization). It outlives its workflow (workflow_id becomes null) because its conversations are the user's.
 */
export const userWorkflows = pgTable(
  'user_workflows',
  {
    userWorkflowId: serial('user_workflow_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').references(() => organizations.organizationId, { onDelete: 'cascade' }),
    workflowId: integer('workflow_id').references(() => workflows.workflowId, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** spec part 2 §3: the comma-separated key=value string (common/src/rules/workflow-values.ts escapes it). */
    values: text('values').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_workflows_user_org_created_idx').on(t.userId, t.organizationId, t.createdAt)],
);

/**
 * A step of a user workflow: the template copied from the workflow when the user workflow was made, and the
 * conversation its output is written in (spec part 2 §3 "user_workflow_templates (conversation_id and
 * template)"). Deleting the conversation or the template removes the step.
 */
export const userWorkflowTemplates = pgTable(
  'user_workflow_templates',
  {
    userWorkflowTemplateId: serial('user_workflow_template_id').primaryKey(),
    userWorkflowId: integer('user_workflow_id')
      .notNull()
      .references(() => userWorkflows.userWorkflowId, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.templateId, { onDelete: 'cascade' }),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.conversationId, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('user_workflow_templates_position_unique').on(t.userWorkflowId, t.position),
    uniqueIndex('user_workflow_templates_conversation_unique').on(t.conversationId),
    index('user_workflow_templates_template_idx').on(t.templateId),
  ],
);
