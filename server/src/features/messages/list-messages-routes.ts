// GET /messages (spec part 2 §7 "GET /messages?filters"): the actor's messages across conversations.
import { browsedMessagePage, browseMessagesQuery } from '@pluma/common/messages-api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { browseMessages, presentBrowsedMessages } from './list-messages';

export function registerListMessagesRoute(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.get(
    '/messages',
    {
      ...signedIn(app, { tags: ['messages'], querystring: browseMessagesQuery, response: { 200: browsedMessagePage } }),
      // A text search reads the actor's messages until a page is found; keep it to a human pace.
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
    },
    async (request) => {
      const page = await browseMessages({ actor: actorOf(request), db: ctx.db, query: request.query });
      return { messages: await presentBrowsedMessages(ctx.db, page.rows), next_cursor: page.nextCursor };
    },
  );
}
