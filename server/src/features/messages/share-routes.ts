// Routes of message sharing (share.ts): the owner's POST /messages/share and DELETE /messages/share/{id},
// and the signed-out GET /shared/{token}. Mounted under /api by messageRoutes.
import {
  messageShare,
  revokedShareResponse,
  shareIdParams,
  sharedMessage,
  sharedTokenParams,
  shareMessageRequest,
} from '@pluma/common/messages-api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { presentShare, readSharedMessage, revokeShare, shareMessage } from './share';

const tags = ['messages'];

export function registerShareRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  // spec part 2 §7 writes the path with a trailing slash; both spellings answer.
  for (const url of ['/messages/share', '/messages/share/']) {
    app.post(
      url,
      {
        ...signedIn(app, { tags, hide: url.endsWith('/'), body: shareMessageRequest, response: { 200: messageShare, 201: messageShare } }),
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (request, reply) => {
        const { share, created } = await shareMessage({ actor: actorOf(request), db: ctx.db, messageId: request.body.message_id });
        return reply.status(created ? 201 : 200).send(presentShare(share));
      },
    );
  }

  app.delete(
    '/messages/share/:id',
    {
      ...signedIn(app, { tags, params: shareIdParams, response: { 200: revokedShareResponse } }),
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request) => {
      await revokeShare({ actor: actorOf(request), db: ctx.db, shareId: request.params.id });
      return { revoked: true as const };
    },
  );

  // Public, no sign-in. Rate-limited per address so tokens cannot be tried in bulk (256 random bits
  // make guessing hopeless anyway); not cached, so a revoked link stops working at once.
  app.get(
    '/shared/:token',
    {
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: { tags, params: sharedTokenParams, response: { 200: sharedMessage } },
    },
    async (request, reply) => {
      const shared = await readSharedMessage({ db: ctx.db, token: request.params.token });
      return reply.header('Cache-Control', 'no-store').header('X-Robots-Tag', 'noindex').send(shared);
    },
  );
}
