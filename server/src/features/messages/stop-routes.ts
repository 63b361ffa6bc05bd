// POST /messages/{id}/stop (issue 30 item 1): Stop generating. Thin: validate → authenticate → service
// (the message checked against the actor, stop-service.ts) → present.
import { message, messageIdParams } from '@pluma/common/messages-api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { presentMessages } from './avatar-citations';
import { stopMessage } from './stop-service';

export function registerStopRoute(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.post(
    '/messages/:id/stop',
    {
      ...signedIn(app, { tags: ['messages'], params: messageIdParams, response: { 200: message } }),
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
    },
    async (request) => {
      const row = await stopMessage({ actor: actorOf(request), ctx, messageId: request.params.id });
      return (await presentMessages(ctx.db, [row]))[0];
    },
  );
}
