// /api/auth/sso/* (issue 33 item 4). Thin: schema → (guard) → service → presenter.
// Visitors: the enabled providers, the redirect to one, its callback, the exchange of the callback's code.
// Staff admins: the providers (requireStaff('admin'), audited). Organization Admins: their organization's choice.
import { loginResponse } from '@pluma/common/users';
import {
  organizationSsoRequest,
  organizationSsoResponse,
  SSO_ATTEMPT_MS,
  SSO_BROWSER_COOKIE,
  ssoExchangeRequest,
  ssoProviderAdmin,
  ssoProviderAdminList,
  ssoProviderIdParams,
  ssoProviderPublicList,
  ssoProviderRequest,
} from '@pluma/common/sso';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getConfigBool } from '../../../platform/appconfig/read';
import { actorOf, signedIn } from '../../../platform/auth/guard';
import { requestLang } from '../../../platform/http/lang';
import { publicBaseUrl } from '../../../platform/http/public-url';
import { MINUTE_MS } from '../rate-limits';
import { readOrganizationSso, updateOrganizationSso, type OrganizationSsoView } from './organization-service';
import { presentSsoProviderAdmin, presentSsoProviderPublic } from './present';
import { createSsoProvider, deleteSsoProvider, listSsoProviders, updateSsoProvider } from './providers-service';
import { exchangeSsoCode, finishSsoSignIn, listEnabledSsoProviders, SsoFailure, startSsoSignIn } from './sign-in';

const COOKIE_PATH = '/api/auth/sso';

function browserCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SSO_BROWSER_COOKIE) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** HttpOnly, Lax (the provider's redirect back is a top-level GET, which carries it), Secure behind https. */
function setBrowserCookie(reply: FastifyReply, secure: boolean, value: string, maxAgeSeconds: number) {
  reply.header(
    'set-cookie',
    `${SSO_BROWSER_COOKIE}=${encodeURIComponent(value)}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  );
}

const presentOrganizationSso = (v: OrganizationSsoView) => ({
  provider_id: v.providerId,
  required: v.required,
  domain: v.domain,
  providers: v.providers.map(presentSsoProviderPublic),
});

export async function ssoRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['auth'];
  const secure = publicBaseUrl(ctx).startsWith('https:');

  app.get('/sso/providers', { schema: { tags, response: { 200: ssoProviderPublicList } } }, async () => ({
    providers: (await listEnabledSsoProviders({ ctx })).map(presentSsoProviderPublic),
  }));

  app.get(
    '/sso/:provider_id/start',
    {
      config: { rateLimit: { max: ctx.env.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: MINUTE_MS } },
      schema: { tags, params: z.object({ provider_id: z.coerce.number().int().positive() }) },
    },
    async (request, reply) => {
      const { url, browserToken } = await startSsoSignIn({ ctx, providerId: request.params.provider_id });
      setBrowserCookie(reply, secure, browserToken, Math.floor(SSO_ATTEMPT_MS / 1000));
      reply.header('Cache-Control', 'no-store');
      return reply.redirect(url, 302);
    },
  );

  app.get(
    '/sso/callback',
    { config: { rateLimit: { max: ctx.env.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: MINUTE_MS } }, schema: { tags } },
    async (request, reply) => {
      const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      // The web's sign-in page: under /auth when the landing page is on (web/src/platform/session/paths.ts).
      const login = `${publicBaseUrl(ctx)}${(await getConfigBool(ctx, 'landing_enabled')) ? '/auth/login' : '/login'}`;
      // The cookie has done its one job either way.
      setBrowserCookie(reply, secure, '', 0);
      reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
      try {
        const { code } = await finishSsoSignIn({
          ctx,
          search,
          browserToken: browserCookie(request),
          lang: requestLang(request),
          meta: { ip: request.ip, requestId: request.id },
          log: request.log,
        });
        // In the fragment: never sent to a server nor in a Referer; the page removes it at once and exchanges it.
        return reply.redirect(`${login}#sso_code=${encodeURIComponent(code)}`, 302);
      } catch (err) {
        if (!(err instanceof SsoFailure)) throw err;
        return reply.redirect(`${login}?sso_error=${err.reason}`, 302);
      }
    },
  );

  app.post(
    '/sso/exchange',
    {
      config: { rateLimit: { max: ctx.env.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: MINUTE_MS } },
      schema: { tags, body: ssoExchangeRequest, response: { 200: loginResponse } },
    },
    (request) => exchangeSsoCode({ ctx, code: request.body.code, deviceTokens: request.body.device_tokens }),
  );

  // Staff admins: the providers (audited by requireStaff's hook; the secret never in the audit row).
  app.get('/sso/admin/providers', signedIn(app, { tags, response: { 200: ssoProviderAdminList } }, { staff: 'admin' }), async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { providers: (await listSsoProviders({ ctx, actor: actorOf(request) })).map((row) => presentSsoProviderAdmin(ctx, row)) };
  });

  app.post(
    '/sso/admin/providers',
    signedIn(app, { tags, body: ssoProviderRequest, response: { 201: ssoProviderAdmin } }, { staff: 'admin' }),
    async (request, reply) => {
      const row = await createSsoProvider({ ctx, actor: actorOf(request), input: request.body });
      request.audited = { target: { type: 'sso_provider', id: row.providerId }, details: { created: true, name: row.name, issuer: row.issuer } };
      return reply.status(201).send(presentSsoProviderAdmin(ctx, row));
    },
  );

  app.put(
    '/sso/admin/providers/:id',
    signedIn(app, { tags, params: ssoProviderIdParams, body: ssoProviderRequest, response: { 200: ssoProviderAdmin } }, { staff: 'admin' }),
    async (request) => {
      const { row, changed } = await updateSsoProvider({ ctx, actor: actorOf(request), providerId: request.params.id, input: request.body });
      request.audited = { target: { type: 'sso_provider', id: row.providerId }, details: { changed } };
      return presentSsoProviderAdmin(ctx, row);
    },
  );

  app.delete(
    '/sso/admin/providers/:id',
    signedIn(app, { tags, params: ssoProviderIdParams }, { staff: 'admin' }),
    async (request, reply) => {
      await deleteSsoProvider({ ctx, actor: actorOf(request), providerId: request.params.id });
      request.audited = { target: { type: 'sso_provider', id: request.params.id }, details: { deleted: true } };
      return reply.status(204).send();
    },
  );

  // An organization's choice: its Admin (and staff admins, who act as its Admin).
  app.get(
    '/sso/organizations/:id',
    signedIn(app, { tags, params: ssoProviderIdParams, response: { 200: organizationSsoResponse } }),
    async (request) => presentOrganizationSso(await readOrganizationSso({ ctx, actor: actorOf(request), organizationId: request.params.id })),
  );

  app.put(
    '/sso/organizations/:id',
    signedIn(app, { tags, params: ssoProviderIdParams, body: organizationSsoRequest, response: { 200: organizationSsoResponse } }),
    async (request) => {
      const { view, changes } = await updateOrganizationSso({ ctx, actor: actorOf(request), organizationId: request.params.id, input: request.body });
      // An organization's sign-in rule is audited like its other settings (organizations/routes.ts).
      request.staffAudit = true;
      request.audited = { target: { type: 'organization', id: request.params.id }, changes };
      return presentOrganizationSso(view);
    },
  );
}
