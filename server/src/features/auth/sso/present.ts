// The exact JSON of single sign-on: a provider as a staff admin sees it (secret masked to its last 4
// characters, as the admin settings do: common/appconfig.ts maskSecret), and as every visitor sees it.
import { maskSecret, SECRET_MASK } from '@pluma/common/appconfig';
import type { SsoProviderAdmin, SsoProviderPublic } from '@pluma/common/sso';
import type { AppContext } from '../../../context';
import { decryptSecret } from '../../../platform/crypto/secret-box';
import { ssoCallbackUrl, type ProviderRow } from './provider-config';

function maskedSecret(ctx: AppContext, sealed: string | null): string {
  if (!sealed) return '';
  try {
    return maskSecret(decryptSecret(ctx.env.APP_SECRET, sealed));
  } catch {
    // Sealed with another APP_SECRET: there is one, but it cannot be shown even in part.
    return SECRET_MASK;
  }
}

export function presentSsoProviderAdmin(ctx: AppContext, row: ProviderRow): SsoProviderAdmin {
  return {
    provider_id: row.providerId,
    name: row.name,
    issuer: row.issuer,
    client_id: row.clientId,
    client_secret: maskedSecret(ctx, row.clientSecretSealed),
    enabled: row.enabled,
    redirect_uri: ssoCallbackUrl(ctx),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const presentSsoProviderPublic = (row: { providerId: number; name: string }): SsoProviderPublic => ({ provider_id: row.providerId, name: row.name });
