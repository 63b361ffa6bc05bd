// Reading the pages a search found (issue 32): only through the outbound guard (safeFetch: public
// addresses only, a size cap and a time limit), robots.txt respected, redirects followed a few hops with
// each hop checked again, and the page reduced to its readable text by @mozilla/readability on linkedom.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import robotsParser from 'robots-parser';
import type { AppContext } from '../../context';
import { safeFetch } from '../../platform/outbound/safe-fetch';

/** The name robots.txt rules are matched against. */
export const WEB_SEARCH_USER_AGENT = 'PlumaBot';
const USER_AGENT = `${WEB_SEARCH_USER_AGENT}/1.0 (+web search in chat)`;
/** A page larger than this is not read (the guard stops reading it). */
export const PAGE_MAX_BYTES = 2 * 1024 * 1024;
const ROBOTS_MAX_BYTES = 256 * 1024;
const MAX_REDIRECTS = 3;

export interface ReadPage {
  url: string;
  title: string;
  text: string;
}

/** One GET through the guard, following at most MAX_REDIRECTS redirects (each target checked like the first). */
async function fetchFollowing(ctx: AppContext, url: string, limits: { timeoutMs: number; maxResponseBytes: number; signal?: AbortSignal }): Promise<{ url: string; response: Response }> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await safeFetch(ctx, current, { ...limits, redirect: 'manual', headers: { 'user-agent': USER_AGENT, accept: 'text/html,text/plain;q=0.8' } });
    if (response.status < 300 || response.status >= 400) return { url: current, response };
    const location = response.headers.get('location');
    if (!location) throw new Error('redirect without location');
    current = new URL(location, current).toString();
  }
  throw new Error('too many redirects');
}

/** robots.txt of each origin, read once per search: a missing or unreadable file allows everything. */
export class RobotsRules {
  private readonly byOrigin = new Map<string, Promise<ReturnType<typeof robotsParser> | null>>();
  constructor(
    private readonly ctx: AppContext,
    private readonly timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {}

  async allows(url: string): Promise<boolean> {
    const origin = new URL(url).origin;
    let rules = this.byOrigin.get(origin);
    if (!rules) {
      const robotsUrl = `${origin}/robots.txt`;
      rules = fetchFollowing(this.ctx, robotsUrl, { timeoutMs: this.timeoutMs, maxResponseBytes: ROBOTS_MAX_BYTES, signal: this.signal })
        .then(async ({ response }) => (response.ok ? robotsParser(robotsUrl, await response.text()) : null))
        .catch(() => null);
      this.byOrigin.set(origin, rules);
    }
    const parsed = await rules;
    return parsed?.isAllowed(url, WEB_SEARCH_USER_AGENT) ?? true;
  }
}

const squeeze = (text: string) =>
  text
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/** The readable text of an HTML page (Readability), else the body's text without scripts and styles. */
export function extractReadable(html: string): { title: string; text: string } {
  const { document } = parseHTML(html);
  const title = document.querySelector('title')?.textContent?.trim() ?? '';
  try {
    // Readability changes the document it reads; this one is ours alone.
    const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 100 }).parse();
    if (article?.textContent?.trim()) return { title: article.title?.trim() || title, text: squeeze(article.textContent) };
  } catch {
    // fall back to the body's text
  }
  for (const node of document.querySelectorAll('script, style, noscript, nav, footer, header')) node.remove();
  return { title, text: squeeze(document.body?.textContent ?? '') };
}

/** Reads one page: null when robots.txt refuses it, the guard refuses or fails it, or it is not text. */
export async function readPage(ctx: AppContext, url: string, robots: RobotsRules, timeoutMs: number, signal?: AbortSignal): Promise<ReadPage | null> {
  try {
    if (!(await robots.allows(url))) return null;
    const { url: finalUrl, response } = await fetchFollowing(ctx, url, { timeoutMs, maxResponseBytes: PAGE_MAX_BYTES, signal });
    if (!response.ok) return null;
    // The page we were redirected to has its own robots.txt rules.
    if (finalUrl !== url && !(await robots.allows(finalUrl))) return null;
    const type = (response.headers.get('content-type') ?? 'text/html').toLowerCase();
    const body = await response.text();
    if (type.includes('text/plain')) return { url: finalUrl, title: '', text: squeeze(body) };
    if (!type.includes('html')) return null;
    const { title, text } = extractReadable(body);
    return text ? { url: finalUrl, title, text } : null;
  } catch {
    return null;
  }
}
