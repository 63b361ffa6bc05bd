// /api/users — own account (spec part 1 §7), recovery, staff lookups. Thin: schema → guard → service → presenter.
import { emailRequest, messageResponse, resetLinkResponse } from '@pluma/common/auth';
import { translate } from '@pluma/common/messages';
import { currentUser, phoneLookupQuery, updateProfileRequest, userSummary } from '@pluma/common/users';
import { ErrorIds } from '@pluma/common/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, requireStaff } from '../../platform/auth/guard';
import { AppError, notFound } from '../../platform/http/errors';
import { requestLang } from '../../platform/http/lang';
import { MINUTE_MS, SIGNUP_RECOVERY_PER_MINUTE } from '../auth/rate-limits';
import { presentUserSummary } from './present';
import { publicBaseUrl } from './public-url';
import { resetPasswordLinkFor, sendResetPasswordLink } from './recovery';
import { currentUserView, deleteOwnAccount, findUserByEmail, findUserByPhone, touchLastUsed, updateProfile } from './service';

// Guards run onRequest (before validation): a 400 is then worded in the user's own language, and a
// caller who is not signed in or not staff never gets as far as validation.
export async function usersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['users'];
  const security = [{ bearer: [] }];

  r.get('/', { onRequest: [app.authenticate], schema: { tags, security, response: { 200: currentUser } } }, async (request) => {
    const actor = actorOf(request);
    await touchLastUsed(ctx, actor);
    return currentUserView(ctx, actor.user.userId);
  });

  r.put(
    '/',
    { onRequest: [app.authenticate], schema: { tags, security, body: updateProfileRequest, response: { 200: currentUser } } },
    (request) => updateProfile({ ctx, userId: actorOf(request).user.userId, changes: request.body }),
  );

  r.delete('/', { onRequest: [app.authenticate], schema: { tags, security } }, async (request, reply) => {
    await deleteOwnAccount({ ctx, userId: actorOf(request).user.userId, log: request.log });
    return reply.status(204).send();
  });

  r.post(
    '/sendResetPasswordLink',
    {
      config: { rateLimit: { max: SIGNUP_RECOVERY_PER_MINUTE, timeWindow: MINUTE_MS } },
      schema: { tags, body: emailRequest, response: { 200: messageResponse } },
    },
    async (request) => {
      await sendResetPasswordLink({ ctx, email: request.body.email, baseUrl: publicBaseUrl(ctx, request), log: request.log });
      return { message: translate(requestLang(request), 'recovery_sent') };
    },
  );

  r.post(
    '/resetPasswordLink',
    {
      onRequest: [app.authenticate, requireStaff('manager')],
      schema: { tags, security, body: emailRequest, response: { 200: resetLinkResponse } },
    },
    async (request) => ({
      link: await resetPasswordLinkFor({ ctx, actor: actorOf(request), email: request.body.email, baseUrl: publicBaseUrl(ctx, request) }),
    }),
  );

  r.get(
    '/email',
    { onRequest: [app.authenticate, requireStaff('manager')], schema: { tags, security, querystring: emailRequest, response: { 200: userSummary } } },
    async (request) => {
      const user = await findUserByEmail(ctx.db, request.query.email);
      if (!user) throw notFound();
      return presentUserSummary(user);
    },
  );

  r.get(
    '/phone',
    { onRequest: [app.authenticate, requireStaff('manager')], schema: { tags, security, querystring: phoneLookupQuery, response: { 200: userSummary } } },
    async (request) => {
      const user = await findUserByPhone(ctx.db, request.query.phone);
      // spec part 1 §8: "We're sorry, we couldn't find an account with that number."
      if (!user) throw new AppError(404, ErrorIds.notFound, 'phone_not_found');
      return presentUserSummary(user);
    },
  );
}
