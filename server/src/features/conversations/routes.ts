// /api/conversations (spec part 2 §7). Thin: authenticate (and resolve the organization) → validate →
// service (scoped to the actor) → present (with abilities).
import {
  conversation,
  conversationIdParams,
  conversationList,
  conversationTags,
  conversationTagsQuery,
  createConversationRequest,
  deletedResponse,
  listConversationsQuery,
  updateConversationRequest,
} from '@pluma/common/conversations';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { abortConversationGenerations } from '../../platform/ai/generation-registry';
import { attachConversationFile } from './file-upload-http';
import { assertOfferedModel } from './model-check';
import { presentConversation } from './present';
import {
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  listConversationTags,
  updateConversation,
} from './service';

const tags = ['conversations'];

export async function conversationRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.get(
    '/conversations',
    signedIn(app, { tags, querystring: listConversationsQuery, response: { 200: conversationList } }),
    async (request) => {
      const actor = actorOf(request);
      const { rows, total, nextCursor } = await listConversations({ actor, db, query: request.query });
      return { conversations: rows.map((c) => presentConversation(actor, c.row, c.file)), total: total.total, total_capped: total.capped, next_cursor: nextCursor };
    },
  );

  app.get(
    '/conversations/tags',
    signedIn(app, { tags, querystring: conversationTagsQuery, response: { 200: conversationTags } }),
    async (request) => listConversationTags({ actor: actorOf(request), db, query: request.query }),
  );

  app.get(
    '/conversations/conversation/:id',
    signedIn(app, { tags, params: conversationIdParams, response: { 200: conversation } }),
    async (request) => {
      const actor = actorOf(request);
      const { row, file } = await getConversation({ actor, db, conversationId: request.params.id });
      return presentConversation(actor, row, file);
    },
  );

  app.post(
    '/conversations',
    signedIn(app, { tags, body: createConversationRequest, response: { 201: conversation } }),
    async (request, reply) => {
      const actor = actorOf(request);
      await assertOfferedModel(app.ctx, request.body.model, actor.organization?.organizationId ?? null);
      const { row, file } = await createConversation({ actor, db, input: request.body });
      return reply.status(201).send(presentConversation(actor, row, file));
    },
  );

  app.put(
    '/conversations',
    signedIn(app, { tags, body: updateConversationRequest, response: { 200: conversation } }),
    async (request) => {
      const actor = actorOf(request);
      await assertOfferedModel(app.ctx, request.body.model, actor.organization?.organizationId ?? null);
      const { row, file } = await updateConversation({ actor, db, input: request.body });
      return presentConversation(actor, row, file);
    },
  );

  app.delete(
    '/conversations/:id',
    signedIn(app, { tags, params: conversationIdParams, response: { 200: deletedResponse } }),
    async (request) => {
      await deleteConversation({ actor: actorOf(request), db, conversationId: request.params.id });
      // The rows are gone; stop their generations now rather than at their next save.
      await abortConversationGenerations(app.ctx, request.params.id);
      return { deleted: true as const };
    },
  );

  app.post(
    '/conversations/file/:id',
    {
      ...signedIn(app, { tags, params: conversationIdParams, consumes: ['multipart/form-data'], response: { 200: conversation } }),
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request) => attachConversationFile(app.ctx, request, request.params.id),
  );
}
