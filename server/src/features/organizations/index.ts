// The organizations feature's public face: what other features may use (eslint.config.js, feature boundaries).
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { organizations } from '../../db/schema';
import { decryptSecret } from '../../platform/crypto/secret-box';

export { organizationsEnabledGate } from './enabled-gate';
export { actorActingOn, actorInOrganization, organizationRules } from './policy';
export { organizationRoutes } from './routes';
export { organizationMemberRoutes } from './members-routes';

/**
 * The organization's own OpenAI key, unsealed (spec part 2 §3 Organization `openai_api_key`); null when it
 * has none. For the AI calls of its scope only (platform/ai/organization-keys.ts caches it): never present it.
 */
export async function readOrganizationOpenAiKey(ctx: AppContext, organizationId: number): Promise<string | null> {
  const [row] = await ctx.db
    .select({ sealed: organizations.openaiApiKeySealed })
    .from(organizations)
    .where(eq(organizations.organizationId, organizationId))
    .limit(1);
  return row?.sealed ? decryptSecret(ctx.env.APP_SECRET, row.sealed) : null;
}

/**
 * The organization's own web search (issue 32): provider, URL and key (unsealed); null when it has no
 * provider of its own (its members search with the operator's). For its members' searches only: never present it.
 */
export async function readOrganizationWebSearch(ctx: AppContext, organizationId: number): Promise<{ provider: string; url: string; apiKey: string } | null> {
  const [row] = await ctx.db
    .select({ provider: organizations.webSearchProvider, url: organizations.webSearchUrl, sealed: organizations.webSearchApiKeySealed })
    .from(organizations)
    .where(eq(organizations.organizationId, organizationId))
    .limit(1);
  if (!row?.provider) return null;
  return { provider: row.provider, url: row.url ?? '', apiKey: row.sealed ? decryptSecret(ctx.env.APP_SECRET, row.sealed) : '' };
}
export { requireOrganization } from './policy';
