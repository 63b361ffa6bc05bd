// GET /api/models: the models offered now — only those whose provider has a key, or the offline demo; in an
// organization with its own OpenAI key, OpenAI's models too (models/offered.ts).
import { modelListResponse } from '@pluma/common/models';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { offeredModelsIn } from './offered';

export async function listModelsRoute(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/models',
    signedIn(app, { tags: ['models'], response: { 200: modelListResponse } }),
    async (request, reply) => {
      // Keys change at runtime (admin settings), so the list is never cached by browsers or proxies.
      reply.header('Cache-Control', 'no-store');
      return (await offeredModelsIn(app.ctx, actorOf(request).organization?.organizationId ?? null)) ?? [];
    },
  );
}
