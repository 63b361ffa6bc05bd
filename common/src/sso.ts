// OpenID Connect single sign-on (issue 33 item 4): the providers staff configure, the public list the sign-in
// page shows, the exchange of the one-time code the callback hands the browser, and an organization's choice.
import { z } from 'zod';
import { text } from './schema-kit';

/** A sign-in attempt (state, nonce, PKCE verifier) lives this long between the redirect and the callback. */
export const SSO_ATTEMPT_MS = 10 * 60 * 1000;
/** The browser cookie that binds an attempt to the browser that started it. */
export const SSO_BROWSER_COOKIE = 'pluma_sso';

const issuerUrl = text({ error: 'sso_issuer_invalid' })
  .trim()
  .max(500, { error: 'sso_issuer_invalid' })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash;
      } catch {
        return false;
      }
    },
    { error: 'sso_issuer_invalid' },
  );

export const ssoProviderRequest = z.object({
  name: text({ error: 'sso_name_invalid' }).trim().min(1, { error: 'sso_name_invalid' }).max(100, { error: 'sso_name_invalid' }),
  issuer: issuerUrl,
  client_id: text({ error: 'sso_client_id_invalid' }).trim().min(1, { error: 'sso_client_id_invalid' }).max(500, { error: 'sso_client_id_invalid' }),
  /** Left out or still masked: unchanged; '' clears it (a public client). */
  client_secret: z.string().max(2000).optional(),
  enabled: z.boolean().optional(),
});
export type SsoProviderRequest = z.infer<typeof ssoProviderRequest>;

export const ssoProviderIdParams = z.object({ id: z.coerce.number().int().positive() });

/** A provider as a staff admin sees it: the client secret masked to its last 4 characters. */
export const ssoProviderAdmin = z.object({
  provider_id: z.number(),
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
  enabled: z.boolean(),
  /** Where the provider must send the browser back (register it as the client's redirect URI). */
  redirect_uri: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SsoProviderAdmin = z.infer<typeof ssoProviderAdmin>;
export const ssoProviderAdminList = z.object({ providers: z.array(ssoProviderAdmin) });

/** What every visitor sees: the enabled providers' buttons on /login. */
export const ssoProviderPublic = z.object({ provider_id: z.number(), name: z.string() });
export type SsoProviderPublic = z.infer<typeof ssoProviderPublic>;
export const ssoProviderPublicList = z.object({ providers: z.array(ssoProviderPublic) });

export const ssoExchangeRequest = z.object({
  code: text({ error: 'sso_code_invalid' }).trim().min(10, { error: 'sso_code_invalid' }).max(200, { error: 'sso_code_invalid' }),
  device_tokens: z.array(z.string().max(200)).max(10).optional(),
});
export type SsoExchangeRequest = z.infer<typeof ssoExchangeRequest>;

export const organizationSsoRequest = z.object({
  /** null: no provider (and so no requirement). */
  provider_id: z.number().int().positive().nullable(),
  required: z.boolean(),
});
export type OrganizationSsoRequest = z.infer<typeof organizationSsoRequest>;

export const organizationSsoResponse = z.object({
  provider_id: z.number().nullable(),
  required: z.boolean(),
  /** The organization's domain the requirement applies to (null: none set, so nothing can be required). */
  domain: z.string().nullable(),
  providers: z.array(ssoProviderPublic),
});
export type OrganizationSsoResponse = z.infer<typeof organizationSsoResponse>;

// The callback's error keys live in a zod-free module (the login page reads them); re-exported here.
export { SSO_ERRORS, type SsoErrorKey } from './rules/sso-errors';
