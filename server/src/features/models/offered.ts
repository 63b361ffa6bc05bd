// The models offered in a scope (issue 12 follow-up): in an organization with its own OpenAI key, the
// models that key reaches, as its AI calls use it (messages/generation.ts scopeCredentials); elsewhere the
// operator's. The organization's key is cached for a few seconds (platform/ai/organization-keys.ts); Personal
// scope reads nothing.
import type { AppContext } from '../../context';
import { organizationCredentials } from '../../platform/ai/organization-keys';
import type { ChatModelInfo } from '../../platform/ai/types';
import { readOrganizationOpenAiKey } from '../organizations';

/** null when no AI service runs on this server. */
export async function offeredModelsIn(ctx: AppContext, organizationId: number | null): Promise<ChatModelInfo[] | null> {
  const ai = ctx.services.ai;
  if (!ai) return null;
  return ai.listModels(await organizationCredentials(ctx, organizationId, readOrganizationOpenAiKey));
}
