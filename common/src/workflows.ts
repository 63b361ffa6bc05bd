// Workflows (spec part 2 §2 "Workflows", §3 "Workflow", "User workflow", §5 "Workflow field values", §7
// "Workflows", "User workflows"; issue 14 item 3): requests and responses of /api/workflows and
// /api/user_workflows, shared by server and web. Values travel as the spec's comma-separated key=value string
// (rules/workflow-values.ts escapes it). docs/decisions.md "Workflows".
import { z } from 'zod';
import { normalizeTags } from './rules/tags';
import { TEMPLATE_FIELD_TYPES } from './rules/template-fields';
import { id, idParam, text } from './schema-kit';

export { decodeWorkflowValues, encodeWorkflowValues, tryDecodeWorkflowValues } from './rules/workflow-values';

export const WORKFLOWS_PAGE_SIZE = 24;
export const USER_WORKFLOWS_PAGE_SIZE = 24;
export const WORKFLOW_NAME_MAX = 200;
export const WORKFLOW_DESCRIPTION_MAX = 1000;
export const WORKFLOW_MAX_TAGS = 10;
export const WORKFLOW_TAG_MAX = 60;
/** Templates (steps) in one workflow. */
export const WORKFLOW_MAX_TEMPLATES = 10;
/** The values string of a user workflow (escaped values of every field). */
export const WORKFLOW_VALUES_MAX = 60_000;

const field = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(TEMPLATE_FIELD_TYPES),
  options: z.array(z.string()),
  order: z.number(),
  value: z.string(),
  isValidField: z.boolean(),
});

export const workflowTemplate = z.object({
  template_id: z.number(),
  name: z.string(),
  description: z.string(),
  /** 0-based step number. */
  position: z.number(),
});
export type WorkflowTemplate = z.infer<typeof workflowTemplate>;

export const WORKFLOW_ACTIONS = ['edit', 'delete', 'start'] as const;
export type WorkflowAction = (typeof WORKFLOW_ACTIONS)[number];

export const workflow = z.object({
  workflow_id: z.number(),
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  /** The steps in order. */
  templates: z.array(workflowTemplate),
  /** The union of the templates' fields (all required when starting it). */
  fields: z.array(field),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities: z.object({ edit: z.boolean(), delete: z.boolean(), start: z.boolean() }),
});
export type Workflow = z.infer<typeof workflow>;

export const workflowList = z.object({ workflows: z.array(workflow), total: z.number(), page: z.number(), pageSize: z.number() });
export type WorkflowList = z.infer<typeof workflowList>;

/** The last answer of a step's conversation. */
export const stepAnswer = z.object({
  message_id: z.number(),
  status: z.string(),
  finish_reason: z.string().nullable(),
});

export const userWorkflowTemplate = z.object({
  user_workflow_template_id: z.number(),
  position: z.number(),
  conversation_id: z.number(),
  template: z.object({ template_id: z.number(), name: z.string(), description: z.string() }),
  /** The newest answer in the step's conversation, or null before its first run. */
  last_answer: stepAnswer.nullable(),
});
export type UserWorkflowTemplate = z.infer<typeof userWorkflowTemplate>;

export const USER_WORKFLOW_ACTIONS = ['edit', 'delete', 'run'] as const;
export type UserWorkflowAction = (typeof USER_WORKFLOW_ACTIONS)[number];

export const userWorkflow = z.object({
  user_workflow_id: z.number(),
  /** null once an admin deleted the workflow (the user's run and its conversations stay). */
  workflow_id: z.number().nullable(),
  name: z.string(),
  /** spec part 2 §3: the comma-separated key=value string. */
  values: z.string(),
  /** The same values decoded (by field name), for the UI. */
  field_values: z.record(z.string(), z.string()),
  /** The fields of its steps' templates, each with its saved value. */
  fields: z.array(field),
  /** Whether every field has a valid value (a step can run). */
  complete: z.boolean(),
  user_workflow_templates: z.array(userWorkflowTemplate),
  organization_id: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities: z.object({ edit: z.boolean(), delete: z.boolean(), run: z.boolean() }),
});
export type UserWorkflow = z.infer<typeof userWorkflow>;

export const userWorkflowList = z.object({ user_workflows: z.array(userWorkflow), total: z.number(), page: z.number(), pageSize: z.number() });
export type UserWorkflowList = z.infer<typeof userWorkflowList>;

export const deletedWorkflowResponse = z.object({ deleted: z.literal(true) });

/** POST /user_workflows/{id}/run: the step's prompt to send as a message to its conversation. */
/** prompt: null when a step's template hides its prompt from the actor (POST /messages { user_workflow_id } fills it server-side). */
export const runStepResponse = z.object({ conversation_id: z.number(), prompt: z.string().nullable() });
export type RunStepResponse = z.infer<typeof runStepResponse>;

// ---- requests ----

const tagsInput = z
  .union([text().max(2000), z.array(text().max(WORKFLOW_TAG_MAX))])
  .transform((v) => normalizeTags(v))
  .refine((tags) => tags.length <= WORKFLOW_MAX_TAGS && tags.every((t) => t.length <= WORKFLOW_TAG_MAX), { error: 'workflow_tags_invalid' });

const requiredText = (max: number) => text().trim().min(1, { error: 'template_input_empty' }).max(max);

export const workflowIdParams = z.object({ id: idParam() });

export const listWorkflowsQuery = z.object({
  query: text().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  organization_id: idParam().optional(),
});
export type ListWorkflowsQuery = z.input<typeof listWorkflowsQuery>;

/** POST /workflows (staff admins): the templates in order, each public. */
export const createWorkflowRequest = z.object({
  name: requiredText(WORKFLOW_NAME_MAX),
  description: text().trim().max(WORKFLOW_DESCRIPTION_MAX).default(''),
  tags: tagsInput.optional(),
  template_ids: z.array(id()).min(1, { error: 'workflow_templates_required' }).max(WORKFLOW_MAX_TEMPLATES),
});
export type CreateWorkflowRequest = z.input<typeof createWorkflowRequest>;

/** PUT /workflows (staff admins): what is sent changes; template_ids replaces the steps. */
export const updateWorkflowRequest = z.object({
  workflow_id: id(),
  name: requiredText(WORKFLOW_NAME_MAX).optional(),
  description: text().trim().max(WORKFLOW_DESCRIPTION_MAX).optional(),
  tags: tagsInput.optional(),
  template_ids: z.array(id()).min(1, { error: 'workflow_templates_required' }).max(WORKFLOW_MAX_TEMPLATES).optional(),
});
export type UpdateWorkflowRequest = z.input<typeof updateWorkflowRequest>;

export const listUserWorkflowsQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  organization_id: idParam().optional(),
});

/** POST /user_workflows: starts a workflow (one conversation per step, in the current context). */
export const createUserWorkflowRequest = z.object({
  workflow_id: id(),
  name: requiredText(WORKFLOW_NAME_MAX),
  organization_id: idParam().nullable().optional(),
});
export type CreateUserWorkflowRequest = z.input<typeof createUserWorkflowRequest>;

/** PUT /user_workflows: `values` is the comma-separated key=value string; all fields required (spec part 2 §5). */
export const updateUserWorkflowRequest = z.object({
  user_workflow_id: id(),
  name: requiredText(WORKFLOW_NAME_MAX).optional(),
  values: text().max(WORKFLOW_VALUES_MAX).optional(),
});
export type UpdateUserWorkflowRequest = z.input<typeof updateUserWorkflowRequest>;

/** POST /user_workflows/{id}/run {conversation_id}: which step. */
export const runStepRequest = z.object({ conversation_id: id() });
