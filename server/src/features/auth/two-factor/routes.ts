// /api/auth/two-factor/* (issue 33 item 2): the signed-in user's authenticator, and the second step of a
// sign-in. Every code-checking route counts wrong codes per account (code-limits-http.ts) besides the per-IP limit.
import {
  twoFactorConfirmRequest,
  twoFactorDisableRequest,
  twoFactorEnabledResponse,
  twoFactorSetupResponse,
  twoFactorStatus,
  twoFactorVerifyRequest,
} from '@pluma/common/auth';
import { authResponse, signInChallenge } from '@pluma/common/users';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, signedIn } from '../../../platform/auth/guard';
import { MINUTE_MS } from '../rate-limits';
import { withCodeAttempt } from './code-limits-http';
import { confirmTwoFactorSetup, disableTwoFactor, getTwoFactorStatus, regenerateRecoveryCodes, startTwoFactorSetup, type RequestMeta } from './service';
import { challengeOwner, finishTwoFactorSignIn, startFactorReconfirm } from './sign-in-step';

const meta = (request: FastifyRequest): RequestMeta => ({ ip: request.ip, requestId: request.id });

export async function twoFactorRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['auth'];
  const perMinute = { rateLimit: { max: ctx.env.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: MINUTE_MS } };

  r.get('/two-factor', signedIn(app, { tags, response: { 200: twoFactorStatus } }), (request) =>
    getTwoFactorStatus({ ctx, actor: actorOf(request) }),
  );

  r.post('/two-factor/setup', { ...signedIn(app, { tags, response: { 200: twoFactorSetupResponse } }), config: perMinute }, (request) =>
    startTwoFactorSetup({ ctx, actor: actorOf(request) }),
  );

  r.post(
    '/two-factor/confirm',
    { ...signedIn(app, { tags, body: twoFactorConfirmRequest, response: { 200: twoFactorEnabledResponse } }), config: perMinute },
    (request, reply) => {
      const actor = actorOf(request);
      return withCodeAttempt(ctx, reply, `2fa:${actor.user.userId}`, () => confirmTwoFactorSetup({ ctx, actor, input: request.body, meta: meta(request) }));
    },
  );

  r.post('/two-factor/disable', { ...signedIn(app, { tags, body: twoFactorDisableRequest }), config: perMinute }, async (request, reply) => {
    const actor = actorOf(request);
    await withCodeAttempt(ctx, reply, `2fa:${actor.user.userId}`, () => disableTwoFactor({ ctx, actor, input: request.body, meta: meta(request) }));
    return reply.status(204).send();
  });

  r.post(
    '/two-factor/recovery-codes',
    { ...signedIn(app, { tags, body: twoFactorDisableRequest, response: { 200: twoFactorEnabledResponse } }), config: perMinute },
    (request, reply) => {
      const actor = actorOf(request);
      return withCodeAttempt(ctx, reply, `2fa:${actor.user.userId}`, () => regenerateRecoveryCodes({ ctx, actor, input: request.body, meta: meta(request) }));
    },
  );

  // "Confirm it's you" before changing a factor (factors.ts requireFactorChange): the second step's challenge.
  r.post('/two-factor/reconfirm', { ...signedIn(app, { tags, response: { 200: signInChallenge } }), config: perMinute }, (request) =>
    startFactorReconfirm({ ctx, actor: actorOf(request) }),
  );

  r.post(
    '/two-factor/verify',
    {
      config: perMinute,
      schema: { tags, body: twoFactorVerifyRequest, response: { 200: authResponse.extend({ device_token: z.string().optional() }) } },
    },
    async (request, reply) => {
      const userId = await challengeOwner(ctx, request.body.challenge);
      return withCodeAttempt(ctx, reply, `2fa:${userId}`, () => finishTwoFactorSignIn(ctx, { userId, ...request.body }, meta(request)));
    },
  );
}
