// /api/outputs (spec part 2 §7 "Outputs"; issue 13 item 5). Thin: authenticate → access gate (412) →
// validate → service → present. Another user's output is a 404 on every route; an avatar the actor may not see too.
import { deletedResponse } from '@pluma/common/avatars';
import {
  createOutputRequest,
  generateOutputsRequest,
  generateOutputsResponse,
  listOutputsQuery,
  output,
  outputIdParams,
  outputList,
  outputMessageRequest,
  outputWithThread,
  rateOutputRequest,
  threadPage,
  threadPageParams,
  threadParams,
  updateOutputRequest,
} from '@pluma/common/outputs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { featureGate } from '../appconfig';
import { accessGate } from '../credits';
import { presentOutput, presentOutputWithThread, presentThreadMessage } from './present';
import { createOutput, deleteOutput, generateOutputs, getOutput, listAvatarOutputs, listThreadMessages, listTrainingOutputs, messageOutput, rateOutput, updateOutput } from './service';

const tags = ['outputs'];
/** Each generation is a call to the provider. */
const generationLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

export async function outputRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  // An output is an avatar's or a training's answer: off with avatars_enabled (Super Fetch's have their own routes).
  const access = { gates: [featureGate(app, 'avatars_enabled'), accessGate(app)] };

  app.get('/outputs/avatar/:id', signedIn(app, { tags, params: outputIdParams, querystring: listOutputsQuery, response: { 200: outputList } }, access), async (request) => {
    const actor = actorOf(request);
    const { rows, total } = await listAvatarOutputs({ actor, db, avatarId: request.params.id, query: request.query });
    return { outputs: rows.map((row) => presentOutput(actor, row)), total };
  });

  app.get('/outputs/training/:id', signedIn(app, { tags, params: outputIdParams, querystring: listOutputsQuery, response: { 200: outputList } }, access), async (request) => {
    const actor = actorOf(request);
    const { rows, total } = await listTrainingOutputs({ actor, db, trainingId: request.params.id, query: request.query });
    return { outputs: rows.map((row) => presentOutput(actor, row)), total };
  });

  app.get('/outputs/:id', signedIn(app, { tags, params: outputIdParams, response: { 200: outputWithThread } }, access), async (request) => {
    const actor = actorOf(request);
    return presentOutputWithThread(actor, await getOutput({ actor, db, outputId: request.params.id }));
  });

  // GET /messages/thread/{id}[/{x}] (spec part 2 §7): an output's thread, 10 at a time (service.ts listThreadMessages).
  // Registered here, with the outputs' gates: a thread is an avatar output's follow-ups.
  const threadMessagesPage = async (actor: ReturnType<typeof actorOf>, outputId: number, cursor?: number) => {
    const page = await listThreadMessages({ actor, db, outputId, cursor });
    return { output_id: outputId, messages: page.rows.map(presentThreadMessage), next_cursor: page.nextCursor };
  };
  app.get('/messages/thread/:id', signedIn(app, { tags: ['messages'], params: threadParams, response: { 200: threadPage } }, access), async (request) =>
    threadMessagesPage(actorOf(request), request.params.id),
  );
  app.get('/messages/thread/:id/:x', signedIn(app, { tags: ['messages'], params: threadPageParams, response: { 200: threadPage } }, access), async (request) =>
    threadMessagesPage(actorOf(request), request.params.id, request.params.x),
  );

  app.post(
    '/outputs/generate',
    { ...signedIn(app, { tags, body: generateOutputsRequest, response: { 202: generateOutputsResponse } }, access), config: generationLimit },
    async (request, reply) => {
      const actor = actorOf(request);
      const rows = await generateOutputs({ ctx, log: app.log, actor, input: request.body });
      return reply.status(202).send({ outputs: rows.map((row) => presentOutput(actor, row)) });
    },
  );

  app.post(
    '/outputs/message',
    { ...signedIn(app, { tags, body: outputMessageRequest, response: { 202: outputWithThread } }, access), config: generationLimit },
    async (request, reply) => {
      const actor = actorOf(request);
      const answered = await messageOutput({ ctx, log: app.log, actor, outputId: request.body.output_id, content: request.body.content });
      return reply.status(202).send(presentOutputWithThread(actor, answered));
    },
  );

  app.post('/outputs', signedIn(app, { tags, body: createOutputRequest, response: { 201: output } }, access), async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(presentOutput(actor, await createOutput({ actor, db, input: request.body })));
  });

  app.post('/outputs/rate', signedIn(app, { tags, body: rateOutputRequest, response: { 200: output } }, access), async (request) => {
    const actor = actorOf(request);
    return presentOutput(actor, await rateOutput({ actor, db, outputId: request.body.output_id, liked: request.body.liked }));
  });

  app.put('/outputs', signedIn(app, { tags, body: updateOutputRequest, response: { 200: output } }, access), async (request) => {
    const actor = actorOf(request);
    return presentOutput(actor, await updateOutput({ actor, db, input: request.body }));
  });

  app.delete('/outputs/:id', signedIn(app, { tags, params: outputIdParams, response: { 200: deletedResponse } }, access), async (request) => {
    await deleteOutput({ actor: actorOf(request), db, outputId: request.params.id });
    return { deleted: true as const };
  });
}
