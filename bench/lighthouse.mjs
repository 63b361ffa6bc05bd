// Lighthouse, mobile profile (simulated slow 4G and a 4× slower CPU, Lighthouse's defaults), on what a
// visitor loads first: the landing page `/`, the sign-in page `/login`, and an open conversation
// `/conversations/{id}` of a signed-in user with a few answered messages. Runs against the built server
// and the built web app (`npm run build` first; nothing is built here) on a fresh PGlite DATA_DIR, in
// Debian's Chromium (CHROME_PATH to use another). Prints performance, accessibility, LCP and the bytes
// transferred per page, the median run of RUNS by performance score, against the goals; never asserts.
// The simulated timings scale the CPU time observed on this machine: other work running at the same time
// (see the load average bench/run.mjs prints) inflates total blocking time and LCP.
// Standalone: `node bench/lighthouse.mjs` (add --json DIR to keep each page's full report there).
// bench/run.mjs imports the default export.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chatUsers, closeUsers, withServer } from './chat-setup.mjs';
import { ROOT } from './lib/server-process.mjs';
import { formatMs } from './lib/table.mjs';

const BENCHMARK = 'Lighthouse mobile';
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage'];
const GOALS = { performance: 95, accessibility: 100, lcpMs: 2500 };
const WEB_INDEX = path.join(ROOT, 'web', 'dist', 'index.html');
// The session the web app reads at start (web/src/api/storage-keys.ts): token and its last refresh.
const TOKEN_KEY = 'token';
const LAST_REFRESH_KEY = 'lastRefresh';
// An open conversation shows its history: this many prompts, each with its answer (the emulator writes them).
const CONVERSATION_PROMPTS = 4;

/** lighthouse, chrome-launcher and Lighthouse's own puppeteer-core; null when lighthouse is not installed. */
async function loadTools() {
  let lighthouseUrl;
  try {
    lighthouseUrl = import.meta.resolve('lighthouse');
  } catch {
    return null;
  }
  // puppeteer-core is Lighthouse's dependency: resolve it from there, as Lighthouse does.
  const fromLighthouse = createRequire(lighthouseUrl);
  const [{ default: lighthouse }, chromeLauncher, { default: puppeteer }] = await Promise.all([
    import(lighthouseUrl),
    import(pathToFileURL(fromLighthouse.resolve('chrome-launcher')).href),
    import(pathToFileURL(fromLighthouse.resolve('puppeteer-core')).href),
  ]);
  return { lighthouse, chromeLauncher, puppeteer };
}

/** Fills the conversation with answered prompts (a little Markdown in each answer) and waits for the answers. */
async function fillConversation(user) {
  for (let i = 0; i < CONVERSATION_PROMPTS; i++) {
    await user.api.expect(201, 'POST', '/api/messages', {
      content: `[words:80] [rate:0] Question ${i + 1}: how should a **first draft** be structured?`,
      conversation_id: user.conversationId,
      stream: false,
    });
  }
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { messages } = await user.api.expect(200, 'GET', `/api/messages/conversation/${user.conversationId}`);
    const answers = messages.filter((m) => m.role === 'assistant');
    if (answers.length >= CONVERSATION_PROMPTS && answers.every((m) => m.status === 'done')) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`conversation ${user.conversationId}: the answers did not finish within 60 s`);
}

/** Writes (or, with token null, removes) the session in the origin's localStorage, from a page of that origin. */
async function setSession(puppeteer, port, origin, token) {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
  try {
    const page = await browser.newPage();
    // A static file of the origin: the app itself does not run, so nothing else is stored or cached.
    await page.goto(`${origin}/favicon.svg`);
    await page.evaluate(
      (keys, value) => {
        // The first-paint cookie too, as the app keeps it beside the token (web/src/api/token-store.ts).
        if (value === null) {
          for (const key of keys) localStorage.removeItem(key);
          globalThis.document.cookie = 'pluma_fp=; Path=/conversations; Max-Age=0; SameSite=Strict';
        } else {
          localStorage.setItem(keys[0], value);
          localStorage.setItem(keys[1], String(Date.now()));
          globalThis.document.cookie = `pluma_fp=${value}; Path=/conversations; Max-Age=2592000; SameSite=Strict`;
        }
      },
      [TOKEN_KEY, LAST_REFRESH_KEY],
      token,
    );
    await page.close();
  } finally {
    await browser.disconnect();
  }
}

// Trace failures Lighthouse itself says to retry (seen on a busy machine: NO_NAVSTART on /login).
const RETRIED_ERRORS = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_TRACING_STARTED']);
const ATTEMPTS = 3;

/** One Lighthouse run. Lighthouse clears the HTTP cache before it loads the page; localStorage stays. */
async function audit(lighthouse, port, url, attempt = 1) {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
  if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError && RETRIED_ERRORS.has(lhr.runtimeError.code) && attempt < ATTEMPTS) return audit(lighthouse, port, url, attempt + 1);
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (id) => (lhr.categories[id].score === null ? NaN : Math.round(lhr.categories[id].score * 100));
  const numeric = (id) => lhr.audits[id]?.numericValue ?? NaN;
  const failing = lhr.categories.accessibility.auditRefs
    .filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 1)
    .map((ref) => ref.id);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    lcpMs: numeric('largest-contentful-paint'),
    fcpMs: numeric('first-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    bytes: numeric('total-byte-weight'),
    renderBlockingMs: lhr.audits['render-blocking-resources']?.details?.overallSavingsMs ?? lhr.audits['render-blocking-insight']?.metricSavings?.FCP ?? 0,
    compressionBytes: lhr.audits['uses-text-compression']?.details?.overallSavingsBytes ?? 0,
    failingA11y: failing,
    // Lighthouse's measure of this machine's CPU speed: its simulated 4× slowdown multiplies the CPU time seen
    // here, so a slower machine (a lower index) shows a longer total blocking time for the same page.
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? NaN,
    report: result.report,
  };
}

const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;

/** The run with the median performance score (the lower middle one of an even count). */
function medianRun(runs) {
  const byScore = [...runs].sort((a, b) => a.performance - b.performance);
  return byScore[Math.floor((byScore.length - 1) / 2)];
}

function rowsFor(label, runs) {
  const run = medianRun(runs);
  const spread = runs.length > 1 ? ` (${runs.length} runs: ${runs.map((r) => r.performance).join(', ')})` : '';
  const notes = [];
  if (run.failingA11y.length) notes.push(`accessibility audits failing: ${run.failingA11y.join(', ')}`);
  if (run.compressionBytes > 0) notes.push(`text compression would still save ${kib(run.compressionBytes)}`);
  notes.push(`this machine's Lighthouse benchmarkIndex: ${runs.map((r) => Math.round(r.benchmarkIndex)).join(', ')}`);
  const benchmark = `${BENCHMARK} ${label}`;
  return [
    {
      benchmark,
      measure: `performance score, median run${spread}`,
      value: String(run.performance),
      goal: `≥ ${GOALS.performance}: ${run.performance >= GOALS.performance ? 'met' : 'NOT met'}`,
      note: notes.join('; ') || undefined,
    },
    {
      benchmark,
      measure: 'largest contentful paint',
      value: formatMs(run.lcpMs),
      goal: `≤ ${formatMs(GOALS.lcpMs)}: ${run.lcpMs <= GOALS.lcpMs ? 'met' : 'NOT met'}`,
    },
    { benchmark, measure: 'first contentful paint / total blocking time', value: `${formatMs(run.fcpMs)} / ${formatMs(run.tbtMs)}`, goal: 'none (reported)' },
    { benchmark, measure: 'render-blocking resources (est. savings)', value: formatMs(run.renderBlockingMs), goal: 'none (reported)' },
    {
      benchmark,
      measure: 'accessibility score',
      value: String(run.accessibility),
      goal: `${GOALS.accessibility}: ${run.accessibility >= GOALS.accessibility ? 'met' : 'NOT met'}`,
    },
    { benchmark, measure: 'bytes transferred (total byte weight)', value: kib(run.bytes), goal: 'none (reported)' },
  ];
}

function unavailable(reason) {
  return [{ benchmark: BENCHMARK, measure: 'performance, accessibility, LCP, bytes', value: 'n/a', note: reason }];
}

export default async function lighthouseBench({ jsonDir = null } = {}) {
  if (!existsSync(WEB_INDEX)) return unavailable(`${path.relative(ROOT, WEB_INDEX)} is missing: run \`npm run build\` first`);
  if (!existsSync(CHROME_PATH)) return unavailable(`no Chrome at ${CHROME_PATH} (set CHROME_PATH)`);
  const tools = await loadTools();
  if (!tools) return unavailable('the lighthouse package is not installed (a devDependency of the bench workspace)');
  const { lighthouse, chromeLauncher, puppeteer } = tools;

  return withServer('PGlite', null, async (server) => {
    const [user] = await chatUsers(server, 1);
    let chrome;
    try {
      await fillConversation(user);
      // The socket would keep the conversation's user "online"; the page opens its own.
      user.socket.close();
      chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
      const pages = [
        { label: '/', path: '/', token: null },
        { label: '/login', path: '/login', token: null },
        { label: '/conversations/{id}', path: `/conversations/${user.conversationId}`, token: user.api.token },
      ];
      const rows = [];
      for (const page of pages) {
        await setSession(puppeteer, chrome.port, server.url, page.token);
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await audit(lighthouse, chrome.port, server.url + page.path));
        if (jsonDir) {
          mkdirSync(jsonDir, { recursive: true });
          const file = path.join(jsonDir, `lighthouse-${page.label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'landing'}.json`);
          writeFileSync(file, medianRun(runs).report);
        }
        rows.push(...rowsFor(page.label, runs));
      }
      return rows;
    } finally {
      await chrome?.kill();
      closeUsers([user]);
    }
  });
}

// Standalone: node bench/lighthouse.mjs [--json DIR]
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { printTable } = await import('./lib/table.mjs');
  const jsonAt = process.argv.indexOf('--json');
  const jsonDir = jsonAt > 0 ? path.resolve(process.argv[jsonAt + 1] ?? 'lighthouse-reports') : null;
  console.log(`Lighthouse mobile, median of ${RUNS} runs per page (BENCH_LIGHTHOUSE_RUNS)...`);
  printTable(await lighthouseBench({ jsonDir }));
  process.exit(0);
}
