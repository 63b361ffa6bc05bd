// /api/ideas: the topics and hashtags generators (spec part 2 §2 "Topics and hashtags"; issue 14 item 5).
// Thin: authenticate → access gate (412) → validate → service. Another user's generation is a 404. The
// user's Stop is the client closing its request: the generation is aborted with it (issue 30 item 1).
import { deletedResponse } from '@pluma/common/avatars';
import { IDEA_KINDS, IDEAS_PAGE_SIZE, generateIdeasRequest, type IdeaKind, idea, ideaIdParams, ideaKindParams, ideaList, listIdeasQuery } from '@pluma/common/ideas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { featureGate, featureSwitches, type FeatureSwitch } from '../appconfig';
import { accessGate } from '../credits';
import { presentIdea } from './present';
import { deleteIdea, generateIdeas, listIdeas } from './service';

const tags = ['ideas'];
/** Each generation is a call to the provider. */
const generationLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

/** Each generator has its own switch (spec part 1 §2: Hashtags hashtags_enabled, Topics topics_enabled). */
const KIND_SWITCH: Record<IdeaKind, FeatureSwitch> = { hashtags: 'hashtags_enabled', topics: 'topics_enabled' };
const ANY_KIND = Object.values(KIND_SWITCH);
/** GET /ideas/{kind}, before validation: an unknown kind passes with either switch on, then fails validation (400). */
const switchOfKind = (request: FastifyRequest) => {
  const kind = (request.params as { kind?: string }).kind;
  return kind === 'hashtags' || kind === 'topics' ? KIND_SWITCH[kind] : ANY_KIND;
};

export async function ideaRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const gated = (which: Parameters<typeof featureGate>[1]) => ({ gates: [featureGate(app, which), accessGate(app)] });

  for (const kind of IDEA_KINDS) {
    app.post(
      `/ideas/${kind}`,
      { ...signedIn(app, { tags, body: generateIdeasRequest[kind], response: { 201: idea } }, gated(KIND_SWITCH[kind])), config: generationLimit },
      async (request, reply) => {
        const actor = actorOf(request);
        // The user's Stop closes the request (issue 30 item 1): the provider call ends with it.
        const stop = new AbortController();
        // A Stop pressed at once can close the request while its sign-in and gates are checked: its 'close' is
        // then past, and the answer would be written and kept for no one.
        if (request.raw.socket?.destroyed) stop.abort();
        else
          reply.raw.once('close', () => {
            if (!reply.raw.writableEnded) stop.abort();
          });
        const { row, avatarName } = await generateIdeas({ ctx, actor, kind, input: request.body, stopSignal: stop.signal });
        return reply.status(201).send(presentIdea(actor, row, avatarName));
      },
    );
  }

  app.get('/ideas/:kind', signedIn(app, { tags, params: ideaKindParams, querystring: listIdeasQuery, response: { 200: ideaList } }, gated(switchOfKind)), async (request) => {
    const actor = actorOf(request);
    const { rows, total, page } = await listIdeas({ actor, db, kind: request.params.kind, page: request.query.page });
    return { ideas: rows.map((r) => presentIdea(actor, r.row, r.avatarName)), total, page, page_size: IDEAS_PAGE_SIZE };
  });

  // Either switch on admits the route; an idea of a kind switched off is then not found (404).
  app.delete('/ideas/:id', signedIn(app, { tags, params: ideaIdParams, response: { 200: deletedResponse } }, gated(ANY_KIND)), async (request) => {
    const switches = await featureSwitches(ctx);
    await deleteIdea({ actor: actorOf(request), db, ideaId: request.params.id, kinds: IDEA_KINDS.filter((kind) => switches[KIND_SWITCH[kind]]) });
    return { deleted: true as const };
  });
}
