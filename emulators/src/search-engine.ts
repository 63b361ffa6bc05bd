// A web-search engine emulator (issue 32) speaking the JSON of the three providers the server supports:
//   SearXNG  GET  /search?q=…&format=json            → { query, results: [{ url, title, content }] }
//   Brave    GET  /res/v1/web/search?q=…             → { query: { original }, web: { results: [{ url, title, description }] } }
//            (X-Subscription-Token required)
//   Tavily   POST /search { api_key, query, max_results } → { query, results: [{ url, title, content, score }] }
// and a small site server (`startTestSites`) for the pages the results point at, with hostile pages for the
// outbound guard: a huge page, a redirect to the cloud-metadata address, a slow page, a robots.txt rule.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen, readJson, sendJson, sleep } from './http-kit';

export interface SearchHit {
  url: string;
  title: string;
  /** The engine's snippet. */
  content: string;
}

export interface RunningSearchEngine {
  /** http://host:port: SearXNG's base URL, and the API base given for Brave and Tavily. */
  url: string;
  /** What every query answers (set by the test); the query is recorded in `queries`. */
  setResults(hits: SearchHit[]): void;
  /** The next `times` searches fail with `status`. */
  failNext(status: number, times?: number): void;
  /** Every search answers after `ms` (a journey sees the "Searching…" step). */
  setDelay(ms: number): void;
  queries: string[];
  close(): Promise<void>;
}

export async function startSearchEngineEmulator(options: { apiKey?: string; host?: string } = {}): Promise<RunningSearchEngine> {
  let hits: SearchHit[] = [];
  let failures: { status: number; times: number } | null = null;
  let delayMs = 0;
  const queries: string[] = [];

  const fail = (res: ServerResponse): boolean => {
    if (!failures || failures.times <= 0) return false;
    failures.times -= 1;
    sendJson(res, failures.status, { error: 'emulated failure' });
    return true;
  };
  const keyRefused = (key: unknown) => options.apiKey !== undefined && key !== options.apiKey;

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (delayMs > 0) await sleep(delayMs);
    if (req.method === 'GET' && url.pathname === '/search') {
      queries.push(url.searchParams.get('q') ?? '');
      if (url.searchParams.get('format') !== 'json') return sendJson(res, 403, { error: 'format not enabled' });
      if (fail(res)) return;
      return sendJson(res, 200, { query: url.searchParams.get('q'), number_of_results: hits.length, results: hits.map((h) => ({ ...h, engine: 'emulator' })) });
    }
    if (req.method === 'GET' && url.pathname === '/res/v1/web/search') {
      queries.push(url.searchParams.get('q') ?? '');
      if (keyRefused(req.headers['x-subscription-token'])) return sendJson(res, 401, { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID' } });
      if (fail(res)) return;
      const results = hits.map((h) => ({ type: 'search_result', url: h.url, title: h.title, description: h.content }));
      return sendJson(res, 200, { type: 'search', query: { original: url.searchParams.get('q') }, web: { type: 'search', results } });
    }
    if (req.method === 'POST' && url.pathname === '/search') {
      const body = await readJson(req);
      queries.push(String(body.query ?? ''));
      if (keyRefused(body.api_key)) return sendJson(res, 401, { detail: { error: 'Unauthorized: missing or invalid API key.' } });
      if (fail(res)) return;
      const max = typeof body.max_results === 'number' ? body.max_results : 5;
      return sendJson(res, 200, { query: body.query, results: hits.slice(0, max).map((h, i) => ({ ...h, score: 1 - i / 10 })) });
    }
    sendJson(res, 404, { error: 'not found' });
  };

  const server = await listen(handler, { host: options.host });
  return {
    url: server.origin,
    setResults: (next) => void (hits = next),
    failNext: (status, times = 1) => void (failures = { status, times }),
    setDelay: (ms) => void (delayMs = ms),
    queries,
    close: () => server.close(),
  };
}

export interface TestPage {
  title: string;
  /** Paragraphs of the article. */
  paragraphs: string[];
}

export interface RunningTestSites {
  origin: string;
  /** Requests received, by path (robots.txt included). */
  hits: string[];
  close(): Promise<void>;
}

/** Bytes of /huge: far over what the server reads of a page. */
export const HUGE_PAGE_BYTES = 12 * 1024 * 1024;

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/**
 * Serves `pages` at /<name> as article pages (with navigation and footer noise the extractor should drop),
 * robots.txt (disallowing /private/), and the hostile pages: /huge, /redirect-metadata, /slow (answers
 * after `slowMs`), /moved (a redirect to /<first page>, which may be followed).
 */
export async function startTestSites(pages: Record<string, TestPage>, options: { slowMs?: number } = {}): Promise<RunningTestSites> {
  const hits: string[] = [];
  const first = Object.keys(pages)[0];
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://sites').pathname;
    hits.push(path);
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end('User-agent: *\nDisallow: /private/\n');
    }
    if (path === '/huge') {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      for (let sent = 0; sent < HUGE_PAGE_BYTES && !res.destroyed; sent += chunk.length) {
        if (!res.write(chunk)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              res.off('drain', done).off('close', done);
              resolve();
            };
            res.on('drain', done).on('close', done);
          });
        }
      }
      return void res.end();
    }
    if (path === '/redirect-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return void res.end();
    }
    if (path === '/moved' && first) {
      res.writeHead(301, { location: `/${first}` });
      return void res.end();
    }
    if (path === '/slow') {
      await sleep(options.slowMs ?? 30_000);
      if (res.destroyed) return;
    }
    const page = pages[path.replace(/^\/(private\/)?/, '')] ?? (path === '/slow' ? { title: 'Slow', paragraphs: ['Too late.'] } : undefined);
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('not found');
    }
    const body = page.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>${escapeHtml(page.title)}</title></head><body>` +
        `<nav><a href="/">Home</a> <a href="/about">About</a></nav>` +
        `<article><h1>${escapeHtml(page.title)}</h1>${body}</article>` +
        `<footer>Copyright the test site. Cookie settings.</footer><script>window.tracking = true;</script></body></html>`,
    );
  };
  const server = await listen(handler, {});
  return { origin: server.origin, hits, close: () => server.close() };
}
