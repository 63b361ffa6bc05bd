// Web search in chat (spec part 2 §7 searchOnInternet, issue 32): search with the configured provider, read
// the top pages, keep the distinct ones within a token budget, and give them to the model numbered so the
// answer cites them as [1], [2]. Steps go to room user-{id} as `web_search` events; the sources are kept on
// the answer (messages.web_sources). A failed search, or one where no page could be read, degrades to an
// answer without the web, and the answer says so (web_search_failed).
import { SocketEvents, type WebSearchPayload } from '@pluma/common/events';
import type { WebSource } from '@pluma/common/messages-api';
import { estimateTokens } from '@pluma/common/rules/token-estimate';
import { translate } from '@pluma/common/messages';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Actor } from '../../platform/auth/actor';
import { messages, webSearches } from '../../db/schema';
import type { ChatTurn } from '../../platform/ai/types';
import { readPage, RobotsRules, type ReadPage } from './pages';
import { searchProvider, webSearchSettings, type SearchResult, type WebSearchSettings } from './providers';

/** Results asked of the provider, distinct ones read, pages kept. */
const RESULTS_ASKED = 8;
const PAGES_READ = 6;
const PAGES_KEPT = 4;
/** What the sources may add to the model's context, in tokens (token-estimate: characters ÷ 4). */
export const WEB_CONTEXT_TOKENS = 3_000;
const QUERY_MAX_CHARS = 300;
const SNIPPET_CHARS = 200;

export interface WebSearchOutcome {
  sources: WebSource[];
  /** The pages' text, numbered as `sources`; null when the search failed or read nothing. */
  context: string | null;
  failed: boolean;
  /** Pages read successfully (before duplicates were dropped and the kept ones chosen). */
  pagesRead: number;
}

/** The same page under another URL form (fragment, tracking parameters, trailing slash) is read once. */
export function normalizedUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.hash = '';
    for (const name of [...url.searchParams.keys()]) if (/^(utm_|fbclid$|gclid$)/i.test(name)) url.searchParams.delete(name);
    return url.toString().replace(/\/$/, '');
  } catch {
    return raw;
  }
}

function distinctResults(results: SearchResult[]): SearchResult[] {
  const seen = new Set<string>();
  return results.filter((r) => {
    const key = normalizedUrl(r.url);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Pages with the same text (mirrors, syndication) count once; the first in the provider's order stays. */
function distinctPages(pages: ReadPage[]): ReadPage[] {
  const seen = new Set<string>();
  return pages.filter((p) => {
    const key = p.text.slice(0, 500).toLowerCase().replace(/\s+/g, ' ');
    if (seen.has(key) || seen.has(normalizedUrl(p.url))) return false;
    seen.add(key);
    seen.add(normalizedUrl(p.url));
    return true;
  });
}

/** Trims each page to an equal share of the budget (whole sentences where it can). */
function trimToBudget(text: string, tokens: number): string {
  const chars = tokens * 4;
  if (estimateTokens(text) <= tokens) return text;
  const cut = text.slice(0, chars);
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'));
  return `${sentenceEnd > chars / 2 ? cut.slice(0, sentenceEnd + 1) : cut}…`;
}

/**
 * Searches the web for `query` on the actor's behalf and reads the top pages. `onStep` hears 'searching'
 * and 'reading'. Never throws: a provider that fails (or is not configured) gives `failed`.
 */
export async function searchWeb({
  ctx,
  actor,
  query,
  onStep,
  signal,
  messageId = null,
}: {
  ctx: AppContext;
  actor: Actor;
  query: string;
  onStep?: (step: 'searching' | 'reading', count?: number) => void;
  /** The answer's Stop: the search and the reading end with it. */
  signal?: AbortSignal;
  /** The answer it is for (the analytics' record keeps it). */
  messageId?: number | null;
}): Promise<WebSearchOutcome> {
  // In an organization, its own provider and key when it has set them (issue 32), else the operator's.
  const organizationId = actor.organization?.organizationId ?? null;
  const settings = await webSearchSettings(ctx, organizationId).catch(() => null);
  const outcome = await searchWith(ctx, settings, query, onStep, signal);
  // Logged for the staff AI-usage analytics (analytics/service.ts); a search the user stopped is not.
  if (!signal?.aborted) {
    await ctx.db
      .insert(webSearches)
      .values({
        userId: actor.user.userId,
        organizationId,
        messageId,
        provider: settings?.provider ?? 'none',
        keyScope: settings?.scope ?? 'app',
        pagesRead: outcome.pagesRead,
        failed: outcome.failed,
      })
      .catch(() => undefined);
  }
  return outcome;
}

async function searchWith(
  ctx: AppContext,
  settings: WebSearchSettings | null,
  query: string,
  onStep: ((step: 'searching' | 'reading', count?: number) => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<WebSearchOutcome> {
  const failed: WebSearchOutcome = { sources: [], context: null, failed: true, pagesRead: 0 };
  if (!settings) return failed;
  onStep?.('searching');
  let results: SearchResult[];
  try {
    results = distinctResults(await searchProvider(ctx, settings, query.slice(0, QUERY_MAX_CHARS), RESULTS_ASKED, signal)).slice(0, PAGES_READ);
  } catch {
    return failed;
  }
  if (results.length === 0 || signal?.aborted) return failed;
  onStep?.('reading', results.length);
  const robots = new RobotsRules(ctx, ctx.env.WEB_SEARCH_PAGE_TIMEOUT_MS, signal);
  const read = await Promise.all(results.map((r) => readPage(ctx, r.url, robots, ctx.env.WEB_SEARCH_PAGE_TIMEOUT_MS, signal)));
  const readable = read.filter((p): p is ReadPage => p !== null);
  const pages = distinctPages(readable).slice(0, PAGES_KEPT);
  if (pages.length === 0) return failed;
  const share = Math.floor(WEB_CONTEXT_TOKENS / pages.length);
  const sources: WebSource[] = pages.map((page, index) => {
    const result = results.find((r) => normalizedUrl(r.url) === normalizedUrl(page.url));
    return {
      n: index + 1,
      title: (page.title || result?.title || new URL(page.url).hostname).slice(0, 200),
      url: page.url,
      site: new URL(page.url).hostname,
      snippet: page.text.slice(0, SNIPPET_CHARS),
    };
  });
  const context = pages.map((page, index) => `[${index + 1}] ${sources[index].title} — ${page.url}\n${trimToBudget(page.text, share)}`).join('\n\n');
  return { sources, context, failed: false, pagesRead: readable.length };
}

/** The system turn that gives the model the sources and how to cite them. */
export function webContextTurn(context: string): ChatTurn {
  return {
    role: 'system',
    content:
      `Web search results for the user's latest message follow, numbered. Use them where they help, cite each ` +
      `fact taken from them with its number in brackets, like [1] or [2], and never cite a number not listed. ` +
      `If they do not answer the question, say so and answer from what you know.\n\n${context}`,
  };
}

export interface WebGroundingJob {
  conversationId: number;
  messageId: number;
  /** What the user asked (the search query). */
  prompt: string;
  turns: ChatTurn[];
}

/**
 * Before an answer written with searchOnInternet: searches, tells the user each step, keeps the sources on
 * the pending answer, and returns the turns with the sources before the prompt (unchanged when the search
 * failed). null: the answer is no longer pending (deleted or stopped meanwhile): nothing is to be written.
 */
export async function groundOnWeb({ ctx, actor, job, signal }: { ctx: AppContext; actor: Actor; job: WebGroundingJob; signal?: AbortSignal }): Promise<ChatTurn[] | null> {
  const userId = actor.user.userId;
  const emit = (payload: Omit<WebSearchPayload, 'message_id' | 'conversation_id'>) =>
    ctx.services.realtime?.emitToUser(userId, SocketEvents.webSearch, { message_id: job.messageId, conversation_id: job.conversationId, ...payload } satisfies WebSearchPayload);
  const outcome = await searchWeb({ ctx, actor, query: job.prompt, signal, messageId: job.messageId, onStep: (step, count) => emit({ step, count }) });
  // Stopped meanwhile: the generation ends the answer as stopped; the search is not recorded as failed.
  if (signal?.aborted) return null;
  const [kept] = await ctx.db
    .update(messages)
    .set({ webSources: outcome.sources, webSearchFailed: outcome.failed })
    .where(and(eq(messages.messageId, job.messageId), eq(messages.userId, userId), inArray(messages.status, ['pending'])))
    .returning({ id: messages.messageId });
  if (!kept) return null;
  emit(outcome.failed ? { step: 'failed' } : { step: 'done', sources: outcome.sources });
  if (!outcome.context) return job.turns;
  // The sources sit just before the prompt they answer (the conversation's own turns stay as they were).
  const last = job.turns.findLastIndex((t) => t.role === 'user');
  const turns = [...job.turns];
  turns.splice(last < 0 ? turns.length : last, 0, webContextTurn(outcome.context));
  return turns;
}

/**
 * Before a document generation written with web search (documents' Prompt and Avatars tools): searches for
 * `query` and gives the model the pages before the request; `appendix` is the list of the pages cited, in
 * the user's language, that ends the generated text (not charged: the model did not write it). Unchanged
 * turns and no appendix when the search failed or was stopped.
 */
export async function groundDocument({
  ctx,
  actor,
  query,
  turns,
  signal,
}: {
  ctx: AppContext;
  actor: Actor;
  query: string;
  turns: ChatTurn[];
  signal?: AbortSignal;
}): Promise<{ turns: ChatTurn[]; appendix: string; sources: WebSource[] }> {
  const outcome = await searchWeb({ ctx, actor, query, signal });
  if (!outcome.context || signal?.aborted) return { turns, appendix: '', sources: [] };
  const last = turns.findLastIndex((t) => t.role === 'user');
  const grounded = [...turns];
  grounded.splice(last < 0 ? grounded.length : last, 0, webContextTurn(outcome.context));
  const heading = translate(actor.user.lang === 'es' ? 'es' : 'en', 'web_sources_heading');
  const escape = (text: string) => text.replace(/[\\`*_[\]<>#|~!]/g, (c) => `\\${c}`);
  const list = outcome.sources.map((s) => `${s.n}. [${escape(s.title)}](${s.url.replace(/[()\s]/g, (c) => encodeURIComponent(c))})`).join('\n');
  return { turns: grounded, appendix: `\n\n## ${heading}\n\n${list}\n`, sources: outcome.sources };
}
