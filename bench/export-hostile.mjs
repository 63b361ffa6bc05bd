// Exports of hostile markdown through the built server (`node bench/export-hostile.mjs`, after
// `npm run build -w server`): the time of POST /api/messages/pdf and /word for two 450-500k-character
// inputs, and how GET /api/health answered meanwhile (exports render in worker threads, so it should
// answer throughout). Prints figures only. Not part of `npm run bench`.
// Inputs: "mixed" = server/src/features/messages/export/hostile-markdown.ts hostileMarkdown() (unclosed
// links, emphasis and backtick runs, deep quotes and lists…); "brackets" = 500,000 "[" (the old
// hand-written parser's worst case: 125 s of CPU before the fix, on the event loop).
import { randomBytes } from 'node:crypto';
import { register } from 'tsx/esm/api';
import { ApiClient } from './chat-client.mjs';
import { removeDir, SERVER_ENTRY, startProcess, tempDataDir } from './lib/server-process.mjs';

register();
const { hostileMarkdown, unclosedBrackets } = await import('../server/src/features/messages/export/hostile-markdown.ts');

const HEALTH_EVERY_MS = 20;
const ms = (value) => `${value.toFixed(0)} ms`;

async function exportWhilePolling(api, health, format, text) {
  let finished = false;
  const latencies = [];
  const started = performance.now();
  const exporting = api.request('POST', `/api/messages/${format}`, { text }).finally(() => (finished = true));
  while (!finished) {
    const sent = performance.now();
    const res = await health.request('GET', '/api/health');
    if (res.status !== 200) throw new Error(`/api/health answered ${res.status}`);
    if (!finished) latencies.push(performance.now() - sent);
    await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
  }
  const res = await exporting;
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return { status: res.status, elapsed, latencies, message: res.body?.message };
}

const dataDir = tempDataDir('export');
const server = await startProcess({ env: { DATA_DIR: dataDir } });
const rows = [];
try {
  const anonymous = new ApiClient(server.url);
  const signup = await anonymous.expect(201, 'POST', '/api/auth/signup', {
    name: 'Bench',
    last_name: 'Export',
    email: `bench-export-${randomBytes(3).toString('hex')}@example.com`,
    password: randomBytes(12).toString('base64url'),
    phone: '+15550109999',
  });
  const api = anonymous.withToken(signup.token);
  const health = new ApiClient(server.url);
  for (const [name, text] of [
    ['mixed', hostileMarkdown()],
    ['brackets', unclosedBrackets()],
  ]) {
    for (const format of ['pdf', 'word']) {
      const result = await exportWhilePolling(api, health, format, text);
      const { latencies } = result;
      rows.push({
        input: `${name} (${text.length} chars)`,
        format,
        status: result.status === 200 ? '200' : `${result.status} ${result.message ?? ''}`,
        export: ms(result.elapsed),
        'health answers during export': String(latencies.length),
        'health median': latencies.length ? ms(latencies[Math.floor(latencies.length / 2)]) : '-',
        'health max': latencies.length ? ms(latencies[latencies.length - 1]) : '-',
      });
    }
  }
  api.close();
  health.close();
} finally {
  await server.stop();
  removeDir(dataDir);
}
console.log(`server: ${SERVER_ENTRY}`);
console.table(rows);
