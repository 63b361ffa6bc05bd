// The OpenID providers staff admins configure (issue 33 item 4): list, add, change, delete; the enabled ones
// as every visitor sees them. The client secret is sealed at rest and leaves only masked (present.ts).
// A provider is saved only once its discovery document reads (through the outbound guard).
import { isMaskedSecret } from '@pluma/common/appconfig';
import type { SsoProviderRequest } from '@pluma/common/sso';
import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../../context';
import { ssoProviders } from '../../../db/schema';
import type { Actor } from '../../../platform/auth/actor';
import { decryptSecret, encryptSecret } from '../../../platform/crypto/secret-box';
import { notFound } from '../../../platform/http/errors';
import { discoverProvider, forgetProviderConfiguration, type ProviderRow } from './provider-config';
import { endSessionsOnRequiredDomains, organizationsRequiring } from '../../../platform/auth/end-domain-sessions';

/** Every provider, for the staff admin's settings (the route's guard admits staff admins only). */
export async function listSsoProviders({ ctx }: { ctx: AppContext; actor: Actor }): Promise<ProviderRow[]> {
  return ctx.db.select().from(ssoProviders).orderBy(asc(ssoProviders.name), asc(ssoProviders.providerId));
}

async function findProvider(ctx: AppContext, providerId: number): Promise<ProviderRow> {
  const [row] = await ctx.db.select().from(ssoProviders).where(eq(ssoProviders.providerId, providerId)).limit(1);
  if (!row) throw notFound();
  return row;
}

/** The secret the form means: the stored one when left out or still masked, none when cleared. */
function chosenSecret(ctx: AppContext, typed: string | undefined, storedSealed: string | null): string | null {
  if (typed === undefined || isMaskedSecret(typed)) return storedSealed ? decryptSecret(ctx.env.APP_SECRET, storedSealed) : null;
  return typed === '' ? null : typed;
}

export async function createSsoProvider({ ctx, input }: { ctx: AppContext; actor: Actor; input: SsoProviderRequest }): Promise<ProviderRow> {
  const secret = chosenSecret(ctx, input.client_secret, null);
  await discoverProvider(ctx, { issuer: input.issuer, clientId: input.client_id, clientSecret: secret });
  const [row] = await ctx.db
    .insert(ssoProviders)
    .values({
      name: input.name,
      issuer: input.issuer,
      clientId: input.client_id,
      clientSecretSealed: secret ? encryptSecret(ctx.env.APP_SECRET, secret) : null,
      enabled: input.enabled ?? true,
    })
    .returning();
  return row;
}

/** Saves the form; returns the row and the names of the fields that changed (for the audit row, never values of the secret). */
export async function updateSsoProvider({ ctx, providerId, input }: { ctx: AppContext; actor: Actor; providerId: number; input: SsoProviderRequest }): Promise<{ row: ProviderRow; changed: string[] }> {
  const current = await findProvider(ctx, providerId);
  const secret = chosenSecret(ctx, input.client_secret, current.clientSecretSealed);
  const secretChanged = input.client_secret !== undefined && !isMaskedSecret(input.client_secret);
  if (input.issuer !== current.issuer || input.client_id !== current.clientId || secretChanged) {
    await discoverProvider(ctx, { issuer: input.issuer, clientId: input.client_id, clientSecret: secret });
  }
  const next = { name: input.name, issuer: input.issuer, clientId: input.client_id, enabled: input.enabled ?? current.enabled };
  const changed: string[] = (Object.keys(next) as (keyof typeof next)[]).filter((key) => next[key] !== current[key]);
  if (secretChanged) changed.push('clientSecret');
  const [row] = await ctx.db
    .update(ssoProviders)
    .set({
      ...next,
      ...(secretChanged ? { clientSecretSealed: secret ? encryptSecret(ctx.env.APP_SECRET, secret) : null } : {}),
      updatedAt: new Date(),
    })
    .where(eq(ssoProviders.providerId, providerId))
    .returning();
  forgetProviderConfiguration(ctx, providerId);
  // Enabled again: the requirements naming it count again (domain-rule.ts), so their domains' sessions end.
  if (!current.enabled && row.enabled) await endSessionsOnRequiredDomains(ctx.db, await organizationsRequiring(ctx.db, providerId));
  return { row, changed };
}

/** Deletes it with its pending sign-ins and organizations' choices of it; the accounts' links stay unlinked from it. */
export async function deleteSsoProvider({ ctx, providerId }: { ctx: AppContext; actor: Actor; providerId: number }): Promise<void> {
  const [row] = await ctx.db.delete(ssoProviders).where(eq(ssoProviders.providerId, providerId)).returning({ providerId: ssoProviders.providerId });
  if (!row) throw notFound();
  forgetProviderConfiguration(ctx, providerId);
}
