// /api/messages (spec part 2 §7). Thin: validate → authenticate → service (ids checked against the actor) → present.
import { deletedResponse } from '@pluma/common/conversations';
import {
  createMessageRequest,
  createMessageResponse,
  enhanceResponse,
  listMessagesQuery,
  message,
  messageIdParams,
  messagePage,
  updateMessageRequest,
} from '@pluma/common/messages-api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { registerExportRoutes } from './export/export-routes';
import { startInterruptedSweep } from './interrupted';
import { registerListMessagesRoute } from './list-messages-routes';
import { presentMessages } from './avatar-citations';
import { presentMessage } from './present';
import { abortAllGenerations } from '../../platform/ai/generation-registry';
import { createMessage, deleteMessage, listMessages, updateMessage } from './service';
import { registerShareRoutes } from './share-routes';
import { registerStopRoute } from './stop-routes';

const tags = ['messages'];

export async function messageRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  // Generations outlive requests but not the process: on close they stop and save as interrupted.
  const stopSweep = startInterruptedSweep(ctx, (err) => app.log.error({ err }, 'marking stale messages failed'));
  app.addHook('preClose', async () => {
    stopSweep();
    await abortAllGenerations(ctx);
  });

  app.post(
    '/messages',
    {
      ...signedIn(app, { tags, body: createMessageRequest, response: { 200: createMessageResponse, 201: createMessageResponse, 202: enhanceResponse } }),
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const outcome = await createMessage({ actor: actorOf(request), ctx, input: request.body, log: request.log });
      if (outcome.kind === 'enhancing') return reply.status(202).send({ enhance_id: outcome.enhanceId, conversation_id: outcome.conversationId });
      // A continued answer keeps its citations (a new one has none yet: no query for it).
      const assistant = outcome.kind === 'continued' ? (await presentMessages(ctx.db, [outcome.assistant]))[0] : presentMessage(outcome.assistant);
      // A prompt with attached files is presented with them (one query, only then).
      const user = outcome.user && (request.body.file_ids?.length ? (await presentMessages(ctx.db, [outcome.user]))[0] : presentMessage(outcome.user));
      const body = { user_message: user, assistant_message: assistant };
      return reply.status(outcome.kind === 'created' ? 201 : 200).send(body);
    },
  );

  app.get(
    '/messages/conversation/:id',
    signedIn(app, { tags, params: messageIdParams, querystring: listMessagesQuery, response: { 200: messagePage } }),
    async (request) => {
      const page = await listMessages({ actor: actorOf(request), db: ctx.db, conversationId: request.params.id, query: request.query });
      return { messages: await presentMessages(ctx.db, page.rows), next_cursor: page.nextCursor };
    },
  );

  app.put(
    '/messages',
    signedIn(app, { tags, body: updateMessageRequest, response: { 200: message } }),
    async (request) => (await presentMessages(ctx.db, [await updateMessage({ actor: actorOf(request), db: ctx.db, input: request.body })]))[0],
  );

  app.delete(
    '/messages/:id',
    signedIn(app, { tags, params: messageIdParams, response: { 200: deletedResponse } }),
    async (request) => {
      await deleteMessage({ actor: actorOf(request), ctx, messageId: request.params.id });
      return { deleted: true as const };
    },
  );

  // GET /messages (list-messages-routes.ts) and sharing (share-routes.ts).
  registerListMessagesRoute(app);
  registerShareRoutes(app);
  // POST /messages/{id}/stop: Stop generating (stop-routes.ts).
  registerStopRoute(app);
  // POST /messages/pdf and /messages/word, rendered off the event loop (export/export-routes.ts).
  registerExportRoutes(app);
}
