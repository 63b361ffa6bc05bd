// /api/users — own account (spec part 1 §7), recovery, staff lookups. Thin: validate → authenticate →
// authorize (signedIn, staff role) → service (users/service.ts, recovery.ts) → presenter.
import { emailRequest, messageResponse, resetLinkResponse, signupRequest } from '@pluma/common/auth';
import { translate } from '@pluma/common/messages';
import { text } from '@pluma/common/schema-kit';
import { onboardingStatus } from '@pluma/common/onboarding';
import { authResponse, currentUser, phoneLookupQuery, updateProfileRequest, userSummary } from '@pluma/common/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { requestLang } from '../../platform/http/lang';
import { accountLimits, MINUTE_MS, signup, SIGNUP_RECOVERY_PER_MINUTE, tooManyAttempts } from '../auth';
import { impersonatorOf } from './admin-service';
import { readOnboardingStatus } from './onboarding-service';
import { presentCurrentUser, presentUserSummary } from './present';
import { publicBaseUrl } from './public-url';
import { createResetLink, sendResetPasswordLink } from './recovery';
import { deleteOwnAccount, getCurrentUser, lookupUserByEmail, lookupUserByPhone, updateProfile } from './service';

const signupRecordRequest = signupRequest.extend({ uid: text().max(200).nullish() });

// Guards run before validation (signedIn): a 400 is then worded in the user's own language, and a
// caller who is not signed in or not staff never gets as far as validation.
export async function usersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['users'];

  r.get('/', signedIn(app, { tags, response: { 200: currentUser } }), async (request) => {
    const actor = actorOf(request);
    const view = await getCurrentUser({ ctx, actor });
    // The cached view is the user's own; who impersonates belongs to this session only.
    return actor.impersonatedBy ? { ...view, impersonated_by: await impersonatorOf(ctx.db, actor.impersonatedBy) } : view;
  });

  // spec part 2 §2: the onboarding check, in the request's context (organization_id). Not cached with the
  // current user: that view is the same in every context.
  r.get('/onboarding', signedIn(app, { tags, response: { 200: onboardingStatus } }), async (request) =>
    readOnboardingStatus({ db: ctx.db, actor: actorOf(request) }),
  );

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
    signedIn(app, { tags, body: updateProfileRequest, response: { 200: currentUser } }),
    async (request) => presentCurrentUser(await updateProfile({ actor: actorOf(request), db: ctx.db, changes: request.body })),
  );

  r.delete('/', signedIn(app, { tags }), async (request, reply) => {
    await deleteOwnAccount({ ctx, actor: actorOf(request), log: request.log });
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
    async (request) => presentUserSummary(await lookupUserByEmail({ db: ctx.db, email: request.query.email })),
  );

  r.get(
    '/phone',
    signedIn(app, { tags, querystring: phoneLookupQuery, response: { 200: userSummary } }, { staff: 'manager' }),
    async (request) => presentUserSummary(await lookupUserByPhone({ db: ctx.db, phone: request.query.phone })),
  );
}
