// An OpenAI client on a user's OWN key (spec part 1 §1: training and refining are billed to their account):
// fine-tuning, trained models' answers, avatar refine. The operator's keys go through service.ts instead.
import OpenAI from 'openai';
import type { AppContext } from '../../context';

export function userKeyClient(ctx: Pick<AppContext, 'env'>, apiKey: string): OpenAI {
  return new OpenAI({ apiKey, baseURL: ctx.env.OPENAI_BASE_URL, maxRetries: 2, timeout: 60_000 });
}
