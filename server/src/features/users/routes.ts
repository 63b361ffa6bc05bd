// /api/users — own account (spec part 1 §7), recovery, staff lookups. Thin: schema → guard → service → presenter.
import { emailRequest, messageResponse, resetLinkResponse, signupRequest } from '@pluma/common/auth';
import { translate } from '@pluma/common/messages';
import { text } from '@pluma/common/schema-kit';
import { authResponse, currentUser, phoneLookupQuery, updateProfileRequest, userSummary } from '@pluma/common/users';
import { ErrorIds } from '@pluma/common/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, requireStaff } from '../../platform/auth/guard';
import { AppError, notFound } from '../../platform/http/errors';
import { requestLang } from '../../platform/http/lang';
import { accountLimits, tooManyAttempts } from '../auth/account-limits';
import { MINUTE_MS, SIGNUP_RECOVERY_PER_MINUTE } from '../auth/rate-limits';
import { signup } from '../auth/service';
import { presentUserSummary } from './present';
import { publicBaseUrl } from './public-url';
import { resetPasswordLinkFor, sendResetPasswordLink } from './recovery';
import { currentUserView, deleteOwnAccount, findUserByEmail, findUserByPhone, touchLastUsed, updateProfile } from './service';

const signupRecordRequest = signupRequest.extend({ uid: text().max(200).nullish() });

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

  // spec part 1 §7 "POST /users — name, email, phone, last_name, uid — sign-up record". Our own auth
  // replaces the identity provider that made the uid, so this is sign-up itself: the same body (with the
  // password), rules, messages, limit and answer as POST /api/auth/signup. `uid` is accepted and ignored;
  // any other field (staff, role, words...) is dropped by the schema, so no one signs up as staff.
  r.post(
    '/',
    {
      config: { rateLimit: { max: SIGNUP_RECOVERY_PER_MINUTE, timeWindow: MINUTE_MS } },
      schema: { tags, body: signupRecordRequest, response: { 201: authResponse } },
    },
    async (request, reply) => {
      const { uid: _uid, ...input } = request.body;
      const result = await signup({ ctx, input, lang: requestLang(request), baseUrl: publicBaseUrl(ctx), log: request.log });
      return reply.status(201).send({ token: result.token, user: result.user });
    },
  );

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
    async (request, reply) => {
      // Per account too, whatever the address: no mail-bombing one inbox from many addresses.
      const waitMs = await accountLimits(ctx).recoveryWaitMs(request.body.email);
      if (waitMs > 0) throw tooManyAttempts(reply, waitMs);
      await sendResetPasswordLink({ ctx, email: request.body.email, baseUrl: publicBaseUrl(ctx), log: request.log });
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
      link: await resetPasswordLinkFor({ ctx, actor: actorOf(request), email: request.body.email, baseUrl: publicBaseUrl(ctx) }),
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
