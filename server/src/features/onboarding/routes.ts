// GET /api/users/onboarding (spec part 2 §2): the onboarding check, in the request's context
// (organization_id). Its own feature: it reads conversations, avatars and purchases, which users must not
// import (they import users). Not cached with the current user: that view is the same in every context.
import { onboardingStatus } from '@pluma/common/onboarding';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { readOnboardingStatus } from './service';

export async function onboardingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.get('/onboarding', signedIn(app, { tags: ['users'], response: { 200: onboardingStatus } }), async (request) =>
    readOnboardingStatus({ db: ctx.db, actor: actorOf(request) }),
  );
}
