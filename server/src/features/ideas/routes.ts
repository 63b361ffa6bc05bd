// /api/ideas: the topics and hashtags generators (spec part 2 §2 "Topics and hashtags"; issue 14 item 5).
// Thin: authenticate → access gate (412) → validate → service. Another user's generation is a 404.
import { deletedResponse } from '@pluma/common/avatars';
import { IDEA_KINDS, generateIdeasRequest, idea, ideaIdParams, ideaKindParams, ideaList, listIdeasQuery } from '@pluma/common/ideas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { accessGate } from '../credits';
import { deleteIdea, generateIdeas, listIdeas } from './service';

const tags = ['ideas'];
/** Each generation is a call to the provider. */
const generationLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

export async function ideaRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const access = { gates: [accessGate(app)] };

  for (const kind of IDEA_KINDS) {
    app.post(
      `/ideas/${kind}`,
      { ...signedIn(app, { tags, body: generateIdeasRequest[kind], response: { 201: idea } }, access), config: generationLimit },
      async (request, reply) => reply.status(201).send(await generateIdeas({ ctx, actor: actorOf(request), kind, input: request.body })),
    );
  }

  app.get('/ideas/:kind', signedIn(app, { tags, params: ideaKindParams, querystring: listIdeasQuery, response: { 200: ideaList } }, access), async (request) =>
    listIdeas({ actor: actorOf(request), db, kind: request.params.kind, page: request.query.page }),
  );

  app.delete('/ideas/:id', signedIn(app, { tags, params: ideaIdParams, response: { 200: deletedResponse } }, access), async (request) => {
    await deleteIdea({ actor: actorOf(request), db, ideaId: request.params.id });
    return { deleted: true as const };
  });
}
