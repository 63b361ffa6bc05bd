// The JSON of a workflow and a user workflow (spec part 2 §3 "Workflow: workflow_id, name, description, tags,
// templates. User workflow: user_workflow_id, workflow_id, name, values, user_workflow_templates
// (conversation_id and template)"), with `abilities` (DESIGN.md §7). Template prompts never leave here: a
// step shows its template's name and description only.
import type { TemplateField } from '@pluma/common/rules/template-fields';
import { checkWorkflowValues, pickWorkflowValues, tryDecodeWorkflowValues } from '@pluma/common/rules/workflow-values';
import type { UserWorkflow, Workflow } from '@pluma/common/workflows';
import { normalizeTags } from '@pluma/common/rules/tags';
import type { messages } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { userWorkflowPolicy, workflowPolicy, type UserWorkflowRow, type WorkflowRow } from './policy';
import type { UserWorkflowWithSteps, WorkflowWithSteps } from './service';

export interface WorkflowStepTemplate {
  templateId: number;
  name: string;
  description: string;
  content: string;
  public: boolean;
  language: string;
  userId: number | null;
  showPrompt: boolean;
  position: number;
}

export interface StepView {
  userWorkflowTemplateId: number;
  position: number;
  conversationId: number;
  template: Omit<WorkflowStepTemplate, 'position'>;
  lastAnswer: Pick<typeof messages.$inferSelect, 'messageId' | 'content' | 'status' | 'finishReason'> | null;
}

export function presentWorkflow(actor: Actor, row: WorkflowRow, steps: WorkflowStepTemplate[], fields: TemplateField[]): Workflow {
  const abilities = workflowPolicy.abilities(actor, row);
  // Start needs steps that every user can run.
  abilities.start &&= steps.length > 0 && steps.every((s) => s.public) && fields.every((f) => f.isValidField);
  return {
    workflow_id: row.workflowId,
    name: row.name,
    description: row.description,
    tags: normalizeTags(row.tags),
    templates: steps.map((s) => ({ template_id: s.templateId, name: s.name, description: s.description, position: s.position })),
    fields,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    abilities,
  };
}

export function presentUserWorkflow(actor: Actor, row: UserWorkflowRow, steps: StepView[], fields: TemplateField[]): UserWorkflow {
  const decoded = tryDecodeWorkflowValues(row.values) ?? {};
  const values = pickWorkflowValues(fields, decoded);
  const complete = Object.keys(checkWorkflowValues(fields, decoded)).length === 0;
  return {
    user_workflow_id: row.userWorkflowId,
    workflow_id: row.workflowId,
    name: row.name,
    values: row.values,
    field_values: decoded,
    fields: fields.map((f) => ({ ...f, value: values[f.name] ?? '' })),
    complete,
    user_workflow_templates: steps.map((s) => ({
      user_workflow_template_id: s.userWorkflowTemplateId,
      position: s.position,
      conversation_id: s.conversationId,
      template: { template_id: s.template.templateId, name: s.template.name, description: s.template.description },
      last_answer: s.lastAnswer ? { message_id: s.lastAnswer.messageId, status: s.lastAnswer.status, finish_reason: s.lastAnswer.finishReason } : null,
    })),
    organization_id: row.organizationId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    abilities: userWorkflowPolicy.abilities(actor, row),
  };
}

/** What the service returns (a row with its steps and fields), presented. */
export const presentWorkflowWithSteps = (actor: Actor, w: WorkflowWithSteps): Workflow => presentWorkflow(actor, w.row, w.steps, w.fields);
export const presentUserWorkflowWithSteps = (actor: Actor, w: UserWorkflowWithSteps): UserWorkflow => presentUserWorkflow(actor, w.row, w.steps, w.fields);
