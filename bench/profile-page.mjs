// Profiles the open conversation's first load in Debian's Chromium (4× CPU slowdown, as Lighthouse's mobile
// profile) and prints where the main thread's JavaScript time goes, by original source file (web/dist's
// source maps). A diagnostic for the Lighthouse figures, not a benchmark: `node bench/profile-page.mjs`.
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';
import { chatUsers, closeUsers, withServer } from './chat-setup.mjs';
import { ROOT } from './lib/server-process.mjs';

const fromLighthouse = createRequire(import.meta.resolve('lighthouse'));
const { default: puppeteer } = await import(pathToFileURL(fromLighthouse.resolve('puppeteer-core')).href);
const PROMPTS = Number(process.env.PROBE_PROMPTS ?? 4);

async function fill(user) {
  for (let i = 0; i < PROMPTS; i++) {
    await user.api.expect(201, 'POST', '/api/messages', { content: `[words:80] [rate:0] Question ${i + 1}: how should a **first draft** be structured?`, conversation_id: user.conversationId, stream: false });
  }
  for (let t = 0; t < 300; t++) {
    const { messages } = await user.api.expect(200, 'GET', `/api/messages/conversation/${user.conversationId}`);
    if (messages.filter((m) => m.role === 'assistant' && m.status === 'done').length >= PROMPTS) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const consumers = new Map();
function consumerFor(url) {
  const file = path.join(ROOT, 'web', 'dist', new URL(url).pathname + '.map');
  if (!consumers.has(file)) consumers.set(file, existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8'))) : null);
  return consumers.get(file);
}

await withServer('PGlite', null, async (server) => {
  const [user] = await chatUsers(server, 1);
  await fill(user);
  user.socket.close();
  const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true });
    await page.goto(`${server.url}/favicon.svg`);
    await page.evaluate((token) => { localStorage.setItem('token', token); localStorage.setItem('lastRefresh', String(Date.now())); }, user.api.token);
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.tracing.start({ path: '/tmp/trace.json', categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute'] });
    const started = Date.now();
    await page.goto(`${server.url}/conversations/${user.conversationId}`, { waitUntil: 'networkidle0', timeout: 120_000 });
    await page.waitForSelector('article', { timeout: 120_000 });
    const lcp = await page.evaluate(() => new Promise((resolve) => new PerformanceObserver((list) => resolve(list.getEntries().at(-1).startTime)).observe({ type: 'largest-contentful-paint', buffered: true })));
    await new Promise((r) => setTimeout(r, 1500));
    const { profile } = await cdp.send('Profiler.stop');
    await page.tracing.stop();
    console.log(`loaded in ${Date.now() - started} ms (4× CPU), LCP ${Math.round(lcp)} ms`);
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map();
    const dt = profile.timeDeltas;
    for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
    const byFile = new Map();
    const byFn = new Map();
    for (const [id, us] of self) {
      const { callFrame } = byId.get(id);
      let key = callFrame.url ? callFrame.url.replace(/^.*\/assets\//, '') : `(${callFrame.functionName || 'program'})`;
      let fn = callFrame.functionName;
      if (callFrame.url.includes('/assets/')) {
        const c = consumerFor(callFrame.url);
        const pos = c?.originalPositionFor({ line: callFrame.lineNumber + 1, column: callFrame.columnNumber });
        if (pos?.source) { key = pos.source.replace(/^.*node_modules\//, 'nm:').replace(/^(\.\.\/)+/, ''); fn = pos.name ?? fn; }
      }
      const pkg = key.startsWith('nm:') ? key.split('/').slice(0, key.startsWith('nm:@') ? 2 : 1).join('/') : key;
      byFile.set(pkg, (byFile.get(pkg) ?? 0) + us);
      byFn.set(`${key}:${fn}`, (byFn.get(`${key}:${fn}`) ?? 0) + us);
    }
    const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${(v / 1000).toFixed(0).padStart(6)} ms  ${k}`).join('\n');
    console.log('--- self time by package/file (throttled)\n' + top(byFile, 40));
    console.log('--- by function\n' + top(byFn, 40));
    const parents = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
    const callers = new Map();
    const nameOf = (node) => {
      const { callFrame } = node;
      if (!callFrame.url.includes('/assets/')) return callFrame.functionName || callFrame.url;
      const pos = consumerFor(callFrame.url)?.originalPositionFor({ line: callFrame.lineNumber + 1, column: callFrame.columnNumber });
      return `${(pos?.source ?? callFrame.url).replace(/^.*node_modules\//, '')}:${pos?.name ?? callFrame.functionName}:${pos?.line}`;
    };
    for (const [id, us] of self) {
      const node = byId.get(id);
      if (!['appendChild', '(program)', 'insertBefore'].includes(node.callFrame.functionName)) continue;
      let chain = [];
      let p = parents.get(id);
      for (let d = 0; d < 4 && p; d++) { chain.push(nameOf(byId.get(p))); p = parents.get(p); }
      const key = node.callFrame.functionName + ' <- ' + chain.join(' <- ');
      callers.set(key, (callers.get(key) ?? 0) + us);
    }
    console.log('--- native callers\n' + top(callers, 15));
  } finally {
    await browser.close();
    closeUsers([user]);
  }
});
