// /api/conversations (spec part 2 §7). Thin: validate → authenticate → service (scoped to the actor) → present.
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
import { actorOf } from '../../platform/auth/guard';
import { abortConversationGenerations } from '../messages/registry';
import { attachConversationFile } from './file-upload';
import { assertOfferedModel } from './model-check';
import {
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  listConversationTags,
  updateConversation,
} from './service';

const tags = ['conversations'];
const security = [{ bearer: [] }];

export async function conversationRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const actorRef = (request: Parameters<typeof actorOf>[0]) => ({ userId: actorOf(request).user.userId });

  app.get(
    '/conversations',
    { preHandler: [app.authenticate], schema: { tags, security, querystring: listConversationsQuery, response: { 200: conversationList } } },
    async (request) => listConversations(db, actorRef(request), request.query),
  );

  app.get(
    '/conversations/tags',
    { preHandler: [app.authenticate], schema: { tags, security, querystring: conversationTagsQuery, response: { 200: conversationTags } } },
    async (request) => listConversationTags(db, actorRef(request), request.query),
  );

  app.get(
    '/conversations/conversation/:id',
    { preHandler: [app.authenticate], schema: { tags, security, params: conversationIdParams, response: { 200: conversation } } },
    async (request) => getConversation(db, actorRef(request), request.params.id),
  );

  app.post(
    '/conversations',
    { preHandler: [app.authenticate], schema: { tags, security, body: createConversationRequest, response: { 201: conversation } } },
    async (request, reply) => {
      await assertOfferedModel(app.ctx, request.body.model);
      return reply.status(201).send(await createConversation(db, actorRef(request), request.body));
    },
  );

  app.put(
    '/conversations',
    { preHandler: [app.authenticate], schema: { tags, security, body: updateConversationRequest, response: { 200: conversation } } },
    async (request) => {
      await assertOfferedModel(app.ctx, request.body.model);
      return updateConversation(db, actorRef(request), request.body);
    },
  );

  app.delete(
    '/conversations/:id',
    { preHandler: [app.authenticate], schema: { tags, security, params: conversationIdParams, response: { 200: deletedResponse } } },
    async (request) => {
      const actor = actorRef(request);
      await deleteConversation(db, actor, request.params.id);
      // The rows are gone; stop their generations now rather than at their next save.
      await abortConversationGenerations(app.ctx, request.params.id);
      return { deleted: true as const };
    },
  );

  app.post(
    '/conversations/file/:id',
    {
      preHandler: [app.authenticate],
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags, security, params: conversationIdParams, consumes: ['multipart/form-data'], response: { 200: conversation } },
    },
    async (request) => attachConversationFile(app.ctx, request, request.params.id),
  );
}
