// The two /api/users calls that are sign-in business (spec part 1 §7): POST /users, the sign-up record, and
// POST /users/sendResetPasswordLink. They live with auth (its limits, its sign-up) so that users never
// imports auth; features/index.ts registers them under /users.
import { emailRequest, messageResponse, signupRequest } from '@pluma/common/auth';
import { translate } from '@pluma/common/messages';
import { text } from '@pluma/common/schema-kit';
import { authResponse } from '@pluma/common/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLang } from '../../platform/http/lang';
import { publicBaseUrl } from '../../platform/http/public-url';
import { sendResetPasswordLink } from '../users';
import { accountLimits } from './account-limits';
import { MINUTE_MS, SIGNUP_RECOVERY_PER_MINUTE } from './rate-limits';
import { tooManyAttempts } from './attempts-http';
import { signup } from './service';
import { refuseRecoveryWhereSsoRequired } from './sso/domain-rule';

const signupRecordRequest = signupRequest.extend({ uid: text().max(200).nullish() });

export async function authUserRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['users'];

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
      const send = (email: string) => sendResetPasswordLink({ ctx, email, baseUrl: publicBaseUrl(ctx), log: request.log });
      await refuseRecoveryWhereSsoRequired(ctx.db, request.body.email, send, request.log);
      await sendResetPasswordLink({ ctx, email: request.body.email, baseUrl: publicBaseUrl(ctx), log: request.log });
      return { message: translate(requestLang(request), 'recovery_sent') };
    },
  );
}
