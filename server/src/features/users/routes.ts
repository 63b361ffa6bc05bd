// /api/users — own account (spec part 1 §7), staff lookups (the sign-up record and the reset mail are
// auth's: auth/user-routes.ts). Thin: validate → authenticate →
// authorize (signedIn, staff role) → service (users/service.ts, recovery.ts) → presenter.
import { emailRequest, resetLinkResponse } from '@pluma/common/auth';
import { currentUser, phoneLookupQuery, updateProfileRequest, userSummary } from '@pluma/common/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { presentCurrentUser, presentUserSummary } from './present';
import { publicBaseUrl } from '../../platform/http/public-url';
import { createResetLink } from './recovery';
import { deleteOwnAccount, getCurrentUser, lookupUserByEmail, lookupUserByPhone, updateProfile } from './service';

// Guards run before validation (signedIn): a 400 is then worded in the user's own language, and a
// caller who is not signed in or not staff never gets as far as validation.
export async function usersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['users'];

  r.get('/', signedIn(app, { tags, response: { 200: currentUser } }), async (request) => getCurrentUser({ ctx, actor: actorOf(request) }));

  r.put(
    '/',
    signedIn(app, { tags, body: updateProfileRequest, response: { 200: currentUser } }),
    async (request) => presentCurrentUser(await updateProfile({ actor: actorOf(request), db: ctx.db, changes: request.body }), actorOf(request).secondFactor === true),
  );

  r.delete('/', signedIn(app, { tags }), async (request, reply) => {
    await deleteOwnAccount({ ctx, actor: actorOf(request), log: request.log });
    return reply.status(204).send();
  });

  r.post(
    '/resetPasswordLink',
    signedIn(app, { tags, body: emailRequest, response: { 200: resetLinkResponse } }, { staff: 'manager' }),
    async (request) => {
      const { link, userId } = await createResetLink({ ctx, actor: actorOf(request), email: request.body.email, baseUrl: publicBaseUrl(ctx) });
      request.audited = { target: { type: 'user', id: userId } };
      return { link };
    },
  );

  r.get(
    '/email',
    signedIn(app, { tags, querystring: emailRequest, response: { 200: userSummary } }, { staff: 'manager' }),
    async (request) => presentUserSummary(await lookupUserByEmail({ actor: actorOf(request), db: ctx.db, email: request.query.email })),
  );

  r.get(
    '/phone',
    signedIn(app, { tags, querystring: phoneLookupQuery, response: { 200: userSummary } }, { staff: 'manager' }),
    async (request) => presentUserSummary(await lookupUserByPhone({ actor: actorOf(request), db: ctx.db, phone: request.query.phone })),
  );
}
