// /api/auth/* (DESIGN.md §4 Auth). Thin: schema → (guard) → service → presenter.
import { changePasswordRequest, loginRequest, resetPasswordRequest, signupRequest, tokenRequest } from '@pluma/common/auth';
import { authResponse, loginResponse } from '@pluma/common/users';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, bearerToken, signedIn } from '../../platform/auth/guard';
import { unauthenticated } from '../../platform/http/errors';
import { requestLang } from '../../platform/http/lang';
import { publicBaseUrl } from '../../platform/http/public-url';
import { accountLimits } from './account-limits';
import { tooManyAttempts } from './attempts-http';
import { MINUTE_MS, REFRESH_PER_MINUTE, SIGNUP_RECOVERY_PER_MINUTE } from './rate-limits';
import { changePassword, exchangeSignInToken, login, logout, refresh, resetPassword, signup } from './service';
import { startSpentSecretsSweep } from './spent-secrets-sweep';
import { twoFactorRoutes } from './two-factor/routes';
// issue 33 item 1: phone sign-in
import { phoneSignInRoutes } from './phone/routes';
import { ssoRoutes } from './sso/routes';
import { passkeyRoutes } from './passkeys/routes';

const MINUTE = MINUTE_MS;


export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['auth'];
  await app.register(twoFactorRoutes);
  await app.register(phoneSignInRoutes);
  await app.register(ssoRoutes);
  await app.register(passkeyRoutes);
  // Used and expired one-time tokens and phone codes are deleted as the app runs.
  const stopSweep = startSpentSecretsSweep(ctx, (err) => app.log.error({ err }, 'purging spent sign-in secrets failed'));
  app.addHook('preClose', async () => stopSweep());

  r.post(
    '/signup',
    {
      config: { rateLimit: { max: SIGNUP_RECOVERY_PER_MINUTE, timeWindow: MINUTE } },
      schema: { tags, body: signupRequest, response: { 201: authResponse } },
    },
    async (request, reply) => {
      const result = await signup({
        ctx,
        input: request.body,
        lang: requestLang(request),
        baseUrl: publicBaseUrl(ctx),
        log: request.log,
      });
      return reply.status(201).send({ token: result.token, user: result.user });
    },
  );

  r.post(
    '/login',
    {
      // 10 a minute per IP and email (RATE_LIMIT_AUTH_PER_MINUTE); counted after the body is parsed.
      // The per-account and per-address limits (account-limits.ts) are checked in the handler.
      config: {
        rateLimit: {
          max: ctx.env.RATE_LIMIT_AUTH_PER_MINUTE,
          timeWindow: MINUTE,
          hook: 'preHandler',
          keyGenerator: (request: FastifyRequest) => `login:${request.ip}:${(request.body as { email?: string } | undefined)?.email ?? ''}`,
        },
      },
      schema: { tags, body: loginRequest, response: { 200: loginResponse } },
    },
    async (request, reply) => {
      const gate = await accountLimits(ctx).beginLogin(request.body.email, request.ip);
      if (!gate.allowed) throw tooManyAttempts(reply, gate.retryAfterMs, gate.reason);
      // A session, or with two-factor on the challenge of the second step (two-factor/sign-in-step.ts).
      const response = await login({ ctx, input: request.body });
      await gate.succeeded();
      return response;
    },
  );

  r.post(
    '/refresh',
    {
      config: { rateLimit: { max: REFRESH_PER_MINUTE, timeWindow: MINUTE } },
      schema: { tags, security: [{ bearer: [] }], response: { 200: authResponse } },
    },
    (request) => {
      const token = bearerToken(request);
      if (!token) throw unauthenticated();
      return refresh({ ctx, token });
    },
  );

  r.post(
    '/logout',
    signedIn(app, { tags }),
    async (request, reply) => {
      await logout({ ctx, actor: actorOf(request) });
      return reply.status(204).send();
    },
  );

  r.post(
    '/reset-password',
    {
      config: { rateLimit: { max: SIGNUP_RECOVERY_PER_MINUTE, timeWindow: MINUTE } },
      schema: { tags, body: resetPasswordRequest, response: { 200: loginResponse } },
    },
    async (request) => {
      const { response, email } = await resetPassword({ ctx, token: request.body.token, password: request.body.password });
      // Proving the mailbox ends any sign-in wait on the account (not its second factor: still asked for).
      await accountLimits(ctx).accountRecovered(email);
      return response;
    },
  );

  r.post(
    '/token',
    {
      config: { rateLimit: { max: ctx.env.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: MINUTE } },
      schema: { tags, body: tokenRequest, response: { 200: authResponse } },
    },
    (request) => exchangeSignInToken({ ctx, token: request.body.token }),
  );

  r.put(
    '/password',
    {
      ...signedIn(app, { tags, body: changePasswordRequest }),
      // Guessing the current password from a stolen session is limited per user.
      config: {
        rateLimit: {
          max: ctx.env.RATE_LIMIT_AUTH_PER_MINUTE,
          timeWindow: MINUTE,
          hook: 'preHandler',
          keyGenerator: (request: FastifyRequest) => `password:${request.actor?.user.userId ?? request.ip}`,
        },
      },
    },
    async (request, reply) => {
      await changePassword({ ctx, actor: actorOf(request), input: request.body });
      return reply.status(204).send();
    },
  );
}
