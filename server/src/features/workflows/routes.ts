// /api/workflows and /api/user_workflows (spec part 2 §7 "Workflows", "User workflows"; issue 14 item 3).
// Thin: authenticate → access gate (412) → validate → service → present. Workflow writes are for staff
// admins (403 otherwise); another user's user workflow is a 404 on every route.
import {
  createUserWorkflowRequest,
  createWorkflowRequest,
  deletedWorkflowResponse,
  listUserWorkflowsQuery,
  listWorkflowsQuery,
  runStepRequest,
  runStepResponse,
  updateUserWorkflowRequest,
  updateWorkflowRequest,
  userWorkflow,
  userWorkflowList,
  workflow,
  workflowIdParams,
  workflowList,
} from '@pluma/common/workflows';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { staffAdminWrites } from '../../platform/auth/staff-admin';
import { featureGate } from '../appconfig';
import { accessGate } from '../credits';
import { abortConversationGenerations } from '../../platform/ai/generation-registry';
import {
  createUserWorkflow,
  createWorkflow,
  deleteUserWorkflow,
  deleteWorkflow,
  getUserWorkflow,
  getWorkflow,
  listUserWorkflows,
  listWorkflows,
  stepPrompt,
  updateUserWorkflow,
  updateWorkflow,
} from './service';
import { presentUserWorkflowWithSteps, presentWorkflowWithSteps } from './present';

const tags = ['workflows'];

export async function workflowRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  // Workflows are built from templates and their tab shows with templates_enabled (docs/decisions.md "Feature switches on the server").
  const templatesOn = featureGate(app, 'templates_enabled');
  const access = { gates: [templatesOn, accessGate(app)] };
  const adminAccess = staffAdminWrites(templatesOn, accessGate(app));

  app.get('/workflows', signedIn(app, { tags, querystring: listWorkflowsQuery, response: { 200: workflowList } }, access), async (request) => {
    const actor = actorOf(request);
    const { rows, ...page } = await listWorkflows({ actor, db, query: request.query });
    return { workflows: rows.map((w) => presentWorkflowWithSteps(actor, w)), ...page };
  });

  app.get('/workflows/:id', signedIn(app, { tags, params: workflowIdParams, response: { 200: workflow } }, access), async (request) => {
    const actor = actorOf(request);
    return presentWorkflowWithSteps(actor, await getWorkflow({ actor, db, workflowId: request.params.id }));
  });

  app.post('/workflows', signedIn(app, { tags, body: createWorkflowRequest, response: { 201: workflow } }, adminAccess), async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(presentWorkflowWithSteps(actor, await createWorkflow({ actor, db, input: request.body })));
  });

  app.put('/workflows', signedIn(app, { tags, body: updateWorkflowRequest, response: { 200: workflow } }, adminAccess), async (request) => {
    const actor = actorOf(request);
    return presentWorkflowWithSteps(actor, await updateWorkflow({ actor, db, input: request.body }));
  });

  app.delete('/workflows/:id', signedIn(app, { tags, params: workflowIdParams, response: { 200: deletedWorkflowResponse } }, adminAccess), async (request) => {
    await deleteWorkflow({ actor: actorOf(request), db, workflowId: request.params.id });
    return { deleted: true as const };
  });

  app.get('/user_workflows', signedIn(app, { tags, querystring: listUserWorkflowsQuery, response: { 200: userWorkflowList } }, access), async (request) => {
    const actor = actorOf(request);
    const { rows, ...page } = await listUserWorkflows({ actor, db, page: request.query.page });
    return { user_workflows: rows.map((w) => presentUserWorkflowWithSteps(actor, w)), ...page };
  });

  app.get('/user_workflows/:id', signedIn(app, { tags, params: workflowIdParams, response: { 200: userWorkflow } }, access), async (request) => {
    const actor = actorOf(request);
    return presentUserWorkflowWithSteps(actor, await getUserWorkflow({ actor, db, userWorkflowId: request.params.id }));
  });

  app.post('/user_workflows', signedIn(app, { tags, body: createUserWorkflowRequest, response: { 201: userWorkflow } }, access), async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(presentUserWorkflowWithSteps(actor, await createUserWorkflow({ actor, db, input: request.body })));
  });

  app.put('/user_workflows', signedIn(app, { tags, body: updateUserWorkflowRequest, response: { 200: userWorkflow } }, access), async (request) => {
    const actor = actorOf(request);
    return presentUserWorkflowWithSteps(actor, await updateUserWorkflow({ actor, db, input: request.body }));
  });

  app.delete('/user_workflows/:id', signedIn(app, { tags, params: workflowIdParams, response: { 200: deletedWorkflowResponse } }, access), async (request) => {
    const conversationIds = await deleteUserWorkflow({ actor: actorOf(request), db, userWorkflowId: request.params.id });
    // Answers still being written in the deleted conversations stop.
    await Promise.all(conversationIds.map((id) => abortConversationGenerations(ctx, id)));
    return { deleted: true as const };
  });

  // A step's prompt (its template filled with the values, after the previous step's answer); the web sends it
  // to the step's conversation with POST /messages, so the chat's streaming, words and retries apply.
  app.post(
    '/user_workflows/:id/run',
    signedIn(app, { tags, params: workflowIdParams, body: runStepRequest, response: { 200: runStepResponse } }, access),
    async (request) => stepPrompt({ actor: actorOf(request), db, userWorkflowId: request.params.id, conversationId: request.body.conversation_id }),
  );
}
