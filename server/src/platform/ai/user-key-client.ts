// An OpenAI client on a user's OWN key (spec part 1 §1: training and refining are billed to their account):
// the key check, fine-tuning, trained models' answers, avatar refine. The operator's keys go through
// service.ts instead.
// The offline demo (DEMO_AI with no operator provider and no OPENAI_BASE_URL: the chat answers with the demo
// model) covers these calls too: they go to the demo model's emulator (server/src/demo/ai.ts), which speaks
// the model list, chat completions, files and fine-tuning, so a newcomer can try avatars without the network.
// The choice is made per request (an admin may save an operator key at any time), hence the fetch wrapper.
import OpenAI from 'openai';
import type { AppContext } from '../../context';
import { offeredModels } from './models';
import { availabilityOf, providerSettings } from './settings';

/** The SDK's default base URL: where a user's key goes when OPENAI_BASE_URL is not set. */
export const OPENAI_PUBLIC_API = 'https://api.openai.com/v1';

export interface UserKeyClientOptions {
  /** Retries of a failed call (default 2). */
  maxRetries?: number;
  /** Per-call timeout in ms (default 60 s). */
  timeout?: number;
}

/**
 * True when the user's own key is answered by the demo model: the demo is on (DEMO_AI), the operator has no
 * provider (the chat offers only the demo model) and OPENAI_BASE_URL does not point the calls elsewhere.
 */
export async function userKeysGoToDemo(ctx: AppContext): Promise<boolean> {
  if (!ctx.env.DEMO_AI || ctx.env.OPENAI_BASE_URL || !ctx.services.demoAi) return false;
  const models = offeredModels(availabilityOf(await providerSettings(ctx)));
  return models.length > 0 && models.every((model) => model.provider === 'demo');
}

export function userKeyClient(ctx: AppContext, apiKey: string, options: UserKeyClientOptions = {}): OpenAI {
  const baseURL = ctx.env.OPENAI_BASE_URL;
  return new OpenAI({
    apiKey,
    baseURL: baseURL ?? OPENAI_PUBLIC_API,
    maxRetries: options.maxRetries ?? 2,
    timeout: options.timeout ?? 60_000,
    // An explicit OPENAI_BASE_URL is where every call goes; otherwise the demo may answer (above).
    ...(baseURL ? {} : { fetch: demoAwareFetch(ctx) }),
  });
}

function demoAwareFetch(ctx: AppContext) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const demo = ctx.services.demoAi;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (demo && url.startsWith(OPENAI_PUBLIC_API) && (await userKeysGoToDemo(ctx))) {
      return fetch(`${await demo.url()}${url.slice(OPENAI_PUBLIC_API.length)}`, init);
    }
    return fetch(input, init);
  };
}
