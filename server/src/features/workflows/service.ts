// Workflow and user workflow operations (spec part 2 §2 "Workflows", §3, §5 "Workflow field values", §7
// "Workflows", "User workflows"), framework-free: verbNoun({ actor, db, ... }) (DESIGN.md §7). Every read and
// write is scoped by policy.ts. docs/decisions.md "Workflows".
import { ErrorIds } from '@pluma/common/errors';
import { translate } from '@pluma/common/messages';
import { fillTemplate, parseTemplateFields, type TemplateField } from '@pluma/common/rules/template-fields';
import { checkWorkflowValues, encodeWorkflowValues, mergeWorkflowFields, pickWorkflowValues, tryDecodeWorkflowValues } from '@pluma/common/rules/workflow-values';
import {
  USER_WORKFLOWS_PAGE_SIZE,
  WORKFLOWS_PAGE_SIZE,
  type CreateUserWorkflowRequest,
  type CreateWorkflowRequest,
  type UpdateUserWorkflowRequest,
  type UpdateWorkflowRequest,
} from '@pluma/common/workflows';
import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { conversations, messages, templates, userWorkflows, userWorkflowTemplates, workflows, workflowTemplates } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, badRequest } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import { canReadPrompt, templateLabel } from '../templates';
import { userWorkflowPolicy, workflowPolicy, type UserWorkflowRow, type WorkflowRow } from './policy';
import type { StepView, WorkflowStepTemplate } from './present';

export interface Scope {
  actor: Actor;
  db: Db;
}

/** A workflow with its steps' templates and the fields they ask for (presentWorkflow shows them). */
export interface WorkflowWithSteps {
  row: WorkflowRow;
  steps: WorkflowStepTemplate[];
  fields: TemplateField[];
}

/** A user workflow with its steps (templates, conversations, newest answers) and fields (presentUserWorkflow). */
export interface UserWorkflowWithSteps {
  row: UserWorkflowRow;
  steps: StepView[];
  fields: TemplateField[];
}

const conflict = (key: 'workflow_template_not_public' | 'workflow_values_incomplete' | 'workflow_previous_step_missing', params?: Record<string, string | number>) =>
  new AppError(409, ErrorIds.conflict, key, params);

type StepTemplateRow = Pick<typeof templates.$inferSelect, 'templateId' | 'name' | 'description' | 'content' | 'public' | 'language' | 'userId' | 'showPrompt'>;

const stepTemplateColumns = {
  templateId: templates.templateId,
  name: templates.name,
  description: templates.description,
  content: templates.content,
  public: templates.public,
  language: templates.language,
  userId: templates.userId,
  showPrompt: templates.showPrompt,
};

/** The fields of a workflow made of these templates (rules/workflow-values.ts). */
const fieldsOf = (steps: readonly Pick<StepTemplateRow, 'content'>[]): TemplateField[] => mergeWorkflowFields(steps.map((s) => parseTemplateFields(s.content).fields));

// ---- workflows ----

/** The steps of these workflows, in order, by workflow id. */
async function stepsOfWorkflows(db: Db | Tx, workflowIds: number[]): Promise<Map<number, WorkflowStepTemplate[]>> {
  const byWorkflow = new Map<number, WorkflowStepTemplate[]>(workflowIds.map((id) => [id, []]));
  if (workflowIds.length === 0) return byWorkflow;
  const rows = await db
    .select({ workflowId: workflowTemplates.workflowId, position: workflowTemplates.position, ...stepTemplateColumns })
    .from(workflowTemplates)
    .innerJoin(templates, eq(templates.templateId, workflowTemplates.templateId))
    .where(inArray(workflowTemplates.workflowId, workflowIds))
    .orderBy(workflowTemplates.workflowId, workflowTemplates.position);
  for (const row of rows) byWorkflow.get(row.workflowId)?.push(row);
  return byWorkflow;
}

async function withSteps(db: Db | Tx, rows: WorkflowRow[]): Promise<WorkflowWithSteps[]> {
  const steps = await stepsOfWorkflows(
    db,
    rows.map((r) => r.workflowId),
  );
  return rows.map((row) => {
    const templatesOf = steps.get(row.workflowId) ?? [];
    return { row, steps: templatesOf, fields: fieldsOf(templatesOf) };
  });
}

export async function listWorkflows({ db, query }: Scope & { query: { query?: string; page: number } }): Promise<{ rows: WorkflowWithSteps[]; total: number; page: number; pageSize: number }> {
  const filters: SQL[] = [];
  if (query.query) {
    const pattern = `%${escapeLikePattern(query.query)}%`;
    filters.push(or(ilike(workflows.name, pattern), ilike(workflows.description, pattern)) as SQL);
  }
  const where = filters.length ? and(...filters) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(workflows)
      .where(where)
      .orderBy(desc(workflows.createdAt), desc(workflows.workflowId))
      .limit(WORKFLOWS_PAGE_SIZE)
      .offset((query.page - 1) * WORKFLOWS_PAGE_SIZE),
    db.select({ n: count() }).from(workflows).where(where),
  ]);
  return { rows: await withSteps(db, rows), total: total?.n ?? 0, page: query.page, pageSize: WORKFLOWS_PAGE_SIZE };
}

export async function getWorkflow({ actor, db, workflowId }: Scope & { workflowId: number }): Promise<WorkflowWithSteps> {
  const row = await workflowPolicy.require(db, actor, workflowId);
  return (await withSteps(db, [row]))[0] as WorkflowWithSteps;
}

/**
 * The templates of a workflow being saved, in the order given: each must exist and be public (so every user
 * can run it), and their fields must fit together (selects of one name sharing an option).
 */
async function checkStepTemplates(db: Db | Tx, templateIds: number[]): Promise<StepTemplateRow[]> {
  const rows = await db.select(stepTemplateColumns).from(templates).where(inArray(templates.templateId, templateIds));
  const byId = new Map(rows.map((r) => [r.templateId, r]));
  const ordered = templateIds.map((id) => byId.get(id));
  if (ordered.some((r) => !r || !r.public)) throw badRequest('workflow_template_not_public');
  const steps = ordered as StepTemplateRow[];
  const broken = fieldsOf(steps).find((f) => !f.isValidField);
  if (broken) throw badRequest('workflow_fields_conflict', undefined, { field: broken.name });
  return steps;
}

async function writeSteps(tx: Tx, workflowId: number, templateIds: number[]) {
  await tx.delete(workflowTemplates).where(eq(workflowTemplates.workflowId, workflowId));
  await tx.insert(workflowTemplates).values(templateIds.map((templateId, position) => ({ workflowId, position, templateId })));
}

export async function createWorkflow({ actor, db, input }: Scope & { input: CreateWorkflowRequest & { description: string; tags?: string[] } }): Promise<WorkflowWithSteps> {
  const workflowId = await db.transaction(async (tx) => {
    await checkStepTemplates(tx, input.template_ids);
    const [row] = await tx
      .insert(workflows)
      .values({ name: input.name, description: input.description, tags: (input.tags ?? []).join(','), createdBy: actor.user.userId })
      .returning({ workflowId: workflows.workflowId });
    const id = (row as { workflowId: number }).workflowId;
    await writeSteps(tx, id, input.template_ids);
    return id;
  });
  return getWorkflow({ actor, db, workflowId });
}

export async function updateWorkflow({ actor, db, input }: Scope & { input: UpdateWorkflowRequest & { tags?: string[] } }): Promise<WorkflowWithSteps> {
  await db.transaction(async (tx) => {
    await workflowPolicy.require(tx, actor, input.workflow_id, 'edit');
    if (input.template_ids) {
      await checkStepTemplates(tx, input.template_ids);
      await writeSteps(tx, input.workflow_id, input.template_ids);
    }
    const changes: Partial<typeof workflows.$inferInsert> = { updatedAt: new Date() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.description !== undefined) changes.description = input.description;
    if (input.tags !== undefined) changes.tags = input.tags.join(',');
    await tx.update(workflows).set(changes).where(eq(workflows.workflowId, input.workflow_id));
  });
  return getWorkflow({ actor, db, workflowId: input.workflow_id });
}

/** Users' runs of it stay (workflow_id becomes null): their conversations are theirs. */
export async function deleteWorkflow({ actor, db, workflowId }: Scope & { workflowId: number }): Promise<void> {
  await workflowPolicy.require(db, actor, workflowId, 'delete');
  await db.delete(workflows).where(eq(workflows.workflowId, workflowId));
}

// ---- user workflows ----

/** The steps of these user workflows with their templates and each conversation's newest answer. */
async function stepsOfUserWorkflows(db: Db | Tx, actor: Actor, ids: number[]): Promise<Map<number, StepView[]>> {
  const byUserWorkflow = new Map<number, StepView[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byUserWorkflow;
  const rows = await db
    .select({
      userWorkflowTemplateId: userWorkflowTemplates.userWorkflowTemplateId,
      userWorkflowId: userWorkflowTemplates.userWorkflowId,
      position: userWorkflowTemplates.position,
      conversationId: userWorkflowTemplates.conversationId,
      template: stepTemplateColumns,
    })
    .from(userWorkflowTemplates)
    .innerJoin(templates, eq(templates.templateId, userWorkflowTemplates.templateId))
    .where(inArray(userWorkflowTemplates.userWorkflowId, ids))
    .orderBy(userWorkflowTemplates.userWorkflowId, userWorkflowTemplates.position);
  const answers = await lastAnswers(
    db,
    actor,
    rows.map((r) => r.conversationId),
  );
  for (const row of rows) byUserWorkflow.get(row.userWorkflowId)?.push({ ...row, lastAnswer: answers.get(row.conversationId) ?? null });
  return byUserWorkflow;
}

type AnswerRow = Pick<typeof messages.$inferSelect, 'messageId' | 'conversationId' | 'content' | 'status' | 'finishReason'>;

/** The newest assistant message of each conversation (the actor's own: conversations are private). */
async function lastAnswers(db: Db | Tx, actor: Actor, conversationIds: number[]): Promise<Map<number, AnswerRow>> {
  if (conversationIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([messages.conversationId], {
      messageId: messages.messageId,
      conversationId: messages.conversationId,
      content: messages.content,
      status: messages.status,
      finishReason: messages.finishReason,
    })
    .from(messages)
    .where(and(inArray(messages.conversationId, conversationIds), eq(messages.userId, actor.user.userId), eq(messages.role, 'assistant'), eq(messages.saveOnConversation, true)))
    .orderBy(messages.conversationId, desc(messages.messageId));
  return new Map(rows.map((r) => [r.conversationId, r]));
}

async function withUserSteps(db: Db | Tx, actor: Actor, rows: UserWorkflowRow[]): Promise<UserWorkflowWithSteps[]> {
  const steps = await stepsOfUserWorkflows(
    db,
    actor,
    rows.map((r) => r.userWorkflowId),
  );
  return rows.map((row) => {
    const stepsOf = steps.get(row.userWorkflowId) ?? [];
    return { row, steps: stepsOf, fields: fieldsOf(stepsOf.map((s) => s.template)) };
  });
}

export async function listUserWorkflows({ actor, db, page }: Scope & { page: number }): Promise<{ rows: UserWorkflowWithSteps[]; total: number; page: number; pageSize: number }> {
  const where = userWorkflowPolicy.visibleTo(actor);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(userWorkflows)
      .where(where)
      .orderBy(desc(userWorkflows.createdAt), desc(userWorkflows.userWorkflowId))
      .limit(USER_WORKFLOWS_PAGE_SIZE)
      .offset((page - 1) * USER_WORKFLOWS_PAGE_SIZE),
    db.select({ n: count() }).from(userWorkflows).where(where),
  ]);
  return { rows: await withUserSteps(db, actor, rows), total: total?.n ?? 0, page, pageSize: USER_WORKFLOWS_PAGE_SIZE };
}

export async function getUserWorkflow({ actor, db, userWorkflowId }: Scope & { userWorkflowId: number }): Promise<UserWorkflowWithSteps> {
  const row = await userWorkflowPolicy.require(db, actor, userWorkflowId, 'edit');
  return (await withUserSteps(db, actor, [row]))[0] as UserWorkflowWithSteps;
}

/**
 * Starts a workflow (spec part 2 §2 "Start (creates a user workflow, then saves field values)"): the user
 * workflow in the actor's context and one conversation per step, named after the run and the template.
 */
export async function createUserWorkflow({ actor, db, input }: Scope & { input: CreateUserWorkflowRequest }): Promise<UserWorkflowWithSteps> {
  const userWorkflowId = await db.transaction(async (tx) => {
    await workflowPolicy.require(tx, actor, input.workflow_id, 'start');
    const steps = (await stepsOfWorkflows(tx, [input.workflow_id])).get(input.workflow_id) ?? [];
    if (steps.length === 0 || steps.some((s) => !s.public)) throw conflict('workflow_template_not_public');
    const organizationId = actor.organization?.organizationId ?? null;
    const [created] = await tx
      .insert(userWorkflows)
      .values({ userId: actor.user.userId, organizationId, workflowId: input.workflow_id, name: input.name })
      .returning({ userWorkflowId: userWorkflows.userWorkflowId });
    const id = (created as { userWorkflowId: number }).userWorkflowId;
    const chats = await tx
      .insert(conversations)
      .values(steps.map((s, i) => ({ userId: actor.user.userId, organizationId, name: `${input.name} · ${i + 1}. ${s.name}`.slice(0, 200) })))
      .returning({ conversationId: conversations.conversationId });
    await tx
      .insert(userWorkflowTemplates)
      .values(steps.map((s, i) => ({ userWorkflowId: id, position: i, templateId: s.templateId, conversationId: (chats[i] as { conversationId: number }).conversationId })));
    return id;
  });
  return getUserWorkflow({ actor, db, userWorkflowId });
}

/**
 * PUT /user_workflows: the name and/or the values (the comma-separated key=value string). Values are checked
 * against the fields of the run's templates: all required, numbers numeric, selects one of their options
 * (spec part 2 §5); a refused save changes nothing. Stored re-encoded with the fields' own names only.
 */
export async function updateUserWorkflow({ actor, db, input }: Scope & { input: UpdateUserWorkflowRequest }): Promise<UserWorkflowWithSteps> {
  const row = await userWorkflowPolicy.require(db, actor, input.user_workflow_id, 'edit');
  const changes: Partial<typeof userWorkflows.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.values !== undefined) {
    const decoded = tryDecodeWorkflowValues(input.values);
    if (!decoded) throw badRequest('workflow_values_malformed', { values: 'workflow_values_malformed' });
    const steps = (await stepsOfUserWorkflows(db, actor, [row.userWorkflowId])).get(row.userWorkflowId) ?? [];
    const fields = fieldsOf(steps.map((s) => s.template));
    const problems = checkWorkflowValues(fields, decoded);
    if (Object.keys(problems).length > 0) throw badRequest('template_required_fields', problems);
    changes.values = encodeWorkflowValues(pickWorkflowValues(fields, decoded));
  }
  await db.update(userWorkflows).set(changes).where(and(userWorkflowPolicy.visibleTo(actor), eq(userWorkflows.userWorkflowId, row.userWorkflowId)));
  return getUserWorkflow({ actor, db, userWorkflowId: row.userWorkflowId });
}

/** Deletes the run and its steps' conversations (with their messages); returns those conversations' ids. */
export async function deleteUserWorkflow({ actor, db, userWorkflowId }: Scope & { userWorkflowId: number }): Promise<number[]> {
  return db.transaction(async (tx) => {
    const row = await userWorkflowPolicy.require(tx, actor, userWorkflowId, 'delete');
    const steps = await tx
      .select({ conversationId: userWorkflowTemplates.conversationId })
      .from(userWorkflowTemplates)
      .where(eq(userWorkflowTemplates.userWorkflowId, row.userWorkflowId));
    const ids = steps.map((s) => s.conversationId);
    await tx.delete(userWorkflows).where(eq(userWorkflows.userWorkflowId, row.userWorkflowId));
    if (ids.length) await tx.delete(conversations).where(and(inArray(conversations.conversationId, ids), eq(conversations.userId, actor.user.userId)));
    return ids;
  });
}

/** A step's prompt for its conversation (stepMessage): what the model is sent, what the chat shows. */
export interface StepMessage {
  conversation_id: number;
  /** The model's prompt. */
  prompt: string;
  /** What the user message shows: the prompt, or — when its template hides its prompt from the actor — a label. */
  shown: string;
  hidden: boolean;
}

/**
 * The prompt of one step (docs/decisions.md "Workflows"): its template filled with the saved values; from the
 * second step on, the previous step's newest finished answer comes first, followed by the instruction 'Use the
 * above text to make a response for the next request' (worded in the template's language), like a document
 * given as context. The web sends { user_workflow_id } with the step's conversation to POST /messages, which
 * fills it here, server-side: a template whose prompt the actor may not read (show_prompt off, not theirs)
 * shows as its name and the values (issue 30 item 9).
 */
export async function stepMessage({ actor, db, userWorkflowId, conversationId }: Scope & { userWorkflowId: number; conversationId: number }): Promise<StepMessage> {
  const row = await userWorkflowPolicy.require(db, actor, userWorkflowId, 'run');
  const steps = (await stepsOfUserWorkflows(db, actor, [row.userWorkflowId])).get(row.userWorkflowId) ?? [];
  const index = steps.findIndex((s) => s.conversationId === conversationId);
  const step = steps[index];
  if (!step) throw badRequest('workflow_step_unknown', { conversation_id: 'workflow_step_unknown' });
  // Only public templates run (an admin may have made one private since the run started).
  if (!step.template.public) throw conflict('workflow_template_not_public');
  const fields = fieldsOf(steps.map((s) => s.template));
  const values = tryDecodeWorkflowValues(row.values) ?? {};
  if (Object.keys(checkWorkflowValues(fields, values)).length > 0) throw conflict('workflow_values_incomplete');
  const picked = pickWorkflowValues(fields, values);
  const filled = fillTemplate(step.template.content, picked);
  const hidden = !canReadPrompt(actor, step.template);
  const shown = hidden ? templateLabel(step.template.name, parseTemplateFields(step.template.content).fields, picked) : filled;
  if (index === 0) return { conversation_id: conversationId, prompt: filled, shown, hidden };
  const previous = steps[index - 1]?.lastAnswer;
  const previousText = previous && previous.status === 'done' ? (previous.content ?? '').trim() : '';
  if (!previousText) throw conflict('workflow_previous_step_missing', { step: index });
  const lang = step.template.language === 'es' ? 'es' : 'en';
  const withPrevious = (text: string) => `${previousText}\n\n${translate(lang, 'workflow_previous_output_instruction')}\n\n${text}`;
  return { conversation_id: conversationId, prompt: withPrevious(filled), shown: hidden ? shown : withPrevious(filled), hidden };
}

/**
 * POST /user_workflows/{id}/run: the step's prompt for an actor who may read its template's prompt; null for
 * anyone else (the web sends { user_workflow_id } to POST /messages instead, and the server fills it).
 */
export async function stepPrompt(scope: Scope & { userWorkflowId: number; conversationId: number }): Promise<{ conversation_id: number; prompt: string | null }> {
  const step = await stepMessage(scope);
  return { conversation_id: step.conversation_id, prompt: step.hidden ? null : step.prompt };
}
