// A provider's OpenID configuration (discovery) through openid-client, with every request to the issuer —
// discovery, the JWKS, the token endpoint — made by the app's outbound guard (platform/outbound/safe-fetch:
// public addresses only unless OUTBOUND_ALLOW_HOSTS lists the host, no redirects, timeout, size cap).
// A plain-http issuer is accepted only for a host in OUTBOUND_ALLOW_HOSTS (a local issuer in tests and
// development). Configurations are cached per provider row version.
import * as client from 'openid-client';
import { ErrorIds } from '@pluma/common/errors';
import type { AppContext } from '../../../context';
import { decryptSecret } from '../../../platform/crypto/secret-box';
import { AppError } from '../../../platform/http/errors';
import { publicBaseUrl } from '../../../platform/http/public-url';
import { safeFetch } from '../../../platform/outbound/safe-fetch';
import type { ssoProviders } from '../../../db/schema';

export type ProviderRow = typeof ssoProviders.$inferSelect;

/** Where providers send the browser back (PUBLIC_URL): the redirect URI to register with each provider. */
export const ssoCallbackUrl = (ctx: AppContext) => `${publicBaseUrl(ctx)}/api/auth/sso/callback`;

const discoveryFailed = () => new AppError(400, ErrorIds.ssoDiscoveryFailed, 'sso_discovery_failed');

function guardedFetch(ctx: AppContext): client.CustomFetch {
  return async (url, options) => {
    const body = options.body;
    let sent: string | Uint8Array | undefined;
    if (typeof body === 'string' || body instanceof Uint8Array) sent = body;
    else if (body instanceof URLSearchParams) sent = body.toString();
    else if (body instanceof ArrayBuffer) sent = new Uint8Array(body);
    else if (body != null) throw new Error('unsupported request body');
    return safeFetch(ctx, url, { method: options.method, headers: options.headers, body: sent, signal: options.signal });
  };
}

const allowsPlainHttp = (ctx: AppContext, issuer: URL) => ctx.env.OUTBOUND_ALLOW_HOSTS.includes(issuer.hostname.toLowerCase());

/** Discovery for an issuer and client: the refusal `sso_discovery_failed` (or the guard's own) when it fails. */
export async function discoverProvider(ctx: AppContext, input: { issuer: string; clientId: string; clientSecret: string | null }): Promise<client.Configuration> {
  const issuer = new URL(input.issuer);
  const insecure = issuer.protocol === 'http:';
  if (insecure && !allowsPlainHttp(ctx, issuer)) throw discoveryFailed();
  try {
    return await client.discovery(
      issuer,
      input.clientId,
      undefined,
      input.clientSecret ? client.ClientSecretPost(input.clientSecret) : client.None(),
      { [client.customFetch]: guardedFetch(ctx), execute: insecure ? [client.allowInsecureRequests] : [], timeout: 10 },
    );
  } catch (err) {
    // The guard's refusal of the address says more than "could not read": keep it.
    if (err instanceof AppError && err.errorId === ErrorIds.outboundRefused) throw err;
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof AppError && cause.errorId === ErrorIds.outboundRefused) throw cause;
    throw discoveryFailed();
  }
}

type Cache = Map<number, { version: number; config: Promise<client.Configuration> }>;
/** Per app context (its guard settings and secret), per provider. */
const caches = new WeakMap<AppContext, Cache>();
const cacheOf = (ctx: AppContext): Cache => {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new Map()));
  return cache;
};

/** The configuration of a stored provider (cached until the row changes; a failed discovery is not kept). */
export function providerConfiguration(ctx: AppContext, row: ProviderRow): Promise<client.Configuration> {
  const cache = cacheOf(ctx);
  const version = row.updatedAt.getTime();
  const hit = cache.get(row.providerId);
  if (hit && hit.version === version) return hit.config;
  const clientSecret = row.clientSecretSealed ? decryptSecret(ctx.env.APP_SECRET, row.clientSecretSealed) : null;
  const config = discoverProvider(ctx, { issuer: row.issuer, clientId: row.clientId, clientSecret });
  cache.set(row.providerId, { version, config });
  config.catch(() => {
    if (cache.get(row.providerId)?.config === config) cache.delete(row.providerId);
  });
  return config;
}

export function forgetProviderConfiguration(ctx: AppContext, providerId: number) {
  cacheOf(ctx).delete(providerId);
}
