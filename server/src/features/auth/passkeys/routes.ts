// /api/auth/passkeys/* and /api/auth/two-factor/passkey* (issue 33 item 3): the signed-in user's passkeys,
// a sign-in with one (no email asked) and a password sign-in's second step with one. Each WebAuthn exchange is
// two calls: options (holding a one-time challenge), then the browser's credential to verify.
import {
  passkeyList,
  passkeyRegisterRequest,
  passkeyRenameRequest,
  passkeySignInRequest,
  passkeyTwoFactorOptionsRequest,
  passkeyTwoFactorRequest,
  passkeyView,
  webAuthnOptions,
} from '@pluma/common/auth';
import { idParam } from '@pluma/common/schema-kit';
import { authResponse } from '@pluma/common/users';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, signedIn } from '../../../platform/auth/guard';
import { publicBaseUrl } from '../../../platform/http/public-url';
import { accountLimits } from '../account-limits';
import { tooManyAttempts } from '../attempts-http';
import { MINUTE_MS, PASSKEY_OPTIONS_PER_ADDRESS, PASSKEY_OPTIONS_WINDOW_MS } from '../rate-limits';
import type { RequestMeta } from '../two-factor/service';
import { challengeOwner } from '../two-factor/sign-in-step';
import { presentPasskey } from './present';
import { deletePasskey, listPasskeys, registerPasskey, renamePasskey, startPasskeyRegistration } from './service';
import { finishSecondFactorWithPasskey, signInWithPasskey, startPasskeySecondFactor, startPasskeySignIn } from './sign-in';
import type { RelyingParty } from './webauthn';

const meta = (request: FastifyRequest): RequestMeta => ({ ip: request.ip, requestId: request.id });

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The relying party as the app already knows its public origin (widgets' appOrigins does the same): PUBLIC_URL
 * and the host the request was made to. New options name the browser's own origin when it is one of them.
 */
function relyingParty(app: FastifyInstance, request: FastifyRequest): RelyingParty {
  const origins = new Set<string>([new URL(publicBaseUrl(app.ctx)).origin]);
  const hostOrigin = request.headers.host ? originOf(`${request.protocol}://${request.headers.host}`) : null;
  if (hostOrigin) origins.add(hostOrigin);
  const asked = typeof request.headers.origin === 'string' ? originOf(request.headers.origin) : null;
  const chosen = asked && origins.has(asked) ? asked : (hostOrigin ?? [...origins][0]);
  const rpIds = [...new Set([...origins].map((origin) => new URL(origin).hostname))];
  return { rpId: new URL(chosen).hostname, rpIds, origins: [...origins] };
}

const passkeyParams = z.object({ passkey_id: idParam() });

export async function passkeyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['auth'];
  const perMinute = { rateLimit: { max: ctx.env.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: MINUTE_MS } };

  r.get('/passkeys', signedIn(app, { tags, response: { 200: passkeyList } }), async (request) => ({
    passkeys: (await listPasskeys({ ctx, actor: actorOf(request) })).map(presentPasskey),
  }));

  r.post('/passkeys/register/options', { ...signedIn(app, { tags, response: { 200: webAuthnOptions } }), config: perMinute }, (request) =>
    startPasskeyRegistration({ ctx, actor: actorOf(request), rp: relyingParty(app, request) }),
  );

  r.post(
    '/passkeys/register',
    { ...signedIn(app, { tags, body: passkeyRegisterRequest, response: { 201: passkeyView } }), config: perMinute },
    async (request, reply) => {
      const row = await registerPasskey({ ctx, actor: actorOf(request), rp: relyingParty(app, request), input: request.body, meta: meta(request) });
      return reply.status(201).send(presentPasskey(row));
    },
  );

  r.put('/passkeys/:passkey_id', signedIn(app, { tags, params: passkeyParams, body: passkeyRenameRequest, response: { 200: passkeyView } }), async (request) =>
    presentPasskey(await renamePasskey({ ctx, actor: actorOf(request), passkeyId: request.params.passkey_id, name: request.body.name, meta: meta(request) })),
  );

  r.delete('/passkeys/:passkey_id', signedIn(app, { tags, params: passkeyParams }), async (request, reply) => {
    await deletePasskey({ ctx, actor: actorOf(request), passkeyId: request.params.passkey_id, meta: meta(request) });
    return reply.status(204).send();
  });

  // Anonymous, and each call stores a challenge: limited per address over 15 minutes too (rate-limits.ts).
  r.post('/passkeys/sign-in/options', { config: perMinute, schema: { tags, response: { 200: webAuthnOptions } } }, async (request, reply) => {
    const waitMs = await accountLimits(ctx).addressWaitMs('passkey-options', request.ip, PASSKEY_OPTIONS_PER_ADDRESS, PASSKEY_OPTIONS_WINDOW_MS);
    if (waitMs > 0) throw tooManyAttempts(reply, waitMs);
    return startPasskeySignIn({ ctx, rp: relyingParty(app, request) });
  });

  r.post('/passkeys/sign-in', { config: perMinute, schema: { tags, body: passkeySignInRequest, response: { 200: authResponse } } }, (request) =>
    signInWithPasskey({ ctx, rp: relyingParty(app, request), credential: request.body.credential }),
  );

  r.post(
    '/two-factor/passkey/options',
    { config: perMinute, schema: { tags, body: passkeyTwoFactorOptionsRequest, response: { 200: webAuthnOptions } } },
    async (request) => startPasskeySecondFactor({ ctx, rp: relyingParty(app, request), userId: await challengeOwner(ctx, request.body.challenge) }),
  );

  r.post(
    '/two-factor/passkey',
    {
      config: perMinute,
      schema: { tags, body: passkeyTwoFactorRequest, response: { 200: authResponse.extend({ device_token: z.string().optional() }) } },
    },
    async (request) =>
      finishSecondFactorWithPasskey({ ctx, rp: relyingParty(app, request), userId: await challengeOwner(ctx, request.body.challenge), input: request.body }),
  );
}
