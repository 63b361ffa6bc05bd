// An organization's single sign-on (issue 33 item 4): its Admin picks one of the providers staff configured
// and may require it for the organization's domain (domain-rule.ts enforces it). Strangers get 404, members
// without the Admin role 403 (organizations/policy.ts).
import type { OrganizationSsoRequest } from '@pluma/common/sso';
import { ErrorIds } from '@pluma/common/errors';
import { and, asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../../context';
import { organizations, organizationSso, ssoProviders } from '../../../db/schema';
import type { Actor } from '../../../platform/auth/actor';
import { AppError, notFound } from '../../../platform/http/errors';
import { requireOrganization } from '../../organizations';
import { endSessionsOnRequiredDomains } from '../../../platform/auth/end-domain-sessions';

export interface OrganizationSsoView {
  providerId: number | null;
  required: boolean;
  domain: string | null;
  providers: { providerId: number; name: string }[];
}

async function view(ctx: AppContext, organizationId: number): Promise<OrganizationSsoView> {
  const [org] = await ctx.db.select({ domain: organizations.domain }).from(organizations).where(eq(organizations.organizationId, organizationId)).limit(1);
  if (!org) throw notFound();
  const [choice] = await ctx.db.select().from(organizationSso).where(eq(organizationSso.organizationId, organizationId)).limit(1);
  const providers = await ctx.db
    .select({ providerId: ssoProviders.providerId, name: ssoProviders.name })
    .from(ssoProviders)
    .where(eq(ssoProviders.enabled, true))
    .orderBy(asc(ssoProviders.name), asc(ssoProviders.providerId));
  return { providerId: choice?.providerId ?? null, required: choice?.required ?? false, domain: org.domain, providers };
}

export async function readOrganizationSso({ ctx, actor, organizationId }: { ctx: AppContext; actor: Actor; organizationId: number }): Promise<OrganizationSsoView> {
  await requireOrganization(ctx.db, actor, organizationId, 'update');
  return view(ctx, organizationId);
}

/** Saves the choice; returns the new view and what changed (for the audit row). */
export async function updateOrganizationSso({
  ctx,
  actor,
  organizationId,
  input,
}: {
  ctx: AppContext;
  actor: Actor;
  organizationId: number;
  input: OrganizationSsoRequest;
}): Promise<{ view: OrganizationSsoView; changes: Record<string, { from: unknown; to: unknown }> }> {
  await requireOrganization(ctx.db, actor, organizationId, 'update');
  const before = await view(ctx, organizationId);
  if (input.provider_id === null) {
    await ctx.db.delete(organizationSso).where(eq(organizationSso.organizationId, organizationId));
  } else {
    const [provider] = await ctx.db
      .select({ providerId: ssoProviders.providerId })
      .from(ssoProviders)
      .where(and(eq(ssoProviders.providerId, input.provider_id), eq(ssoProviders.enabled, true)))
      .limit(1);
    if (!provider) throw notFound();
    if (input.required && !before.domain) throw new AppError(400, ErrorIds.ssoDomainMissing, 'sso_domain_missing');
    const values = { organizationId, providerId: input.provider_id, required: input.required, updatedAt: new Date() };
    await ctx.db.insert(organizationSso).values(values).onConflictDoUpdate({ target: organizationSso.organizationId, set: values });
  }
  const after = await view(ctx, organizationId);
  // The requirement starts to count (or now names another provider): sessions opened before it end.
  if (after.required && (!before.required || before.providerId !== after.providerId)) await endSessionsOnRequiredDomains(ctx.db, [organizationId]);
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  if (before.providerId !== after.providerId) changes.provider_id = { from: before.providerId, to: after.providerId };
  if (before.required !== after.required) changes.required = { from: before.required, to: after.required };
  return { view: after, changes };
}
