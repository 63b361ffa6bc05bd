// The heap of a process started with --inspect=127.0.0.1:0, read over the DevTools protocol: the
// benchmark measures the server from outside, so the product carries no debug endpoint for it.
import WebSocket from 'ws';

/** The inspector's URL from the process output ("Debugger listening on ws://…"). */
export async function inspectorUrl(output, timeoutMs = 10_000) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const found = output.join('').match(/Debugger listening on (ws:\/\/\S+)/);
    if (found) return found[1];
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the process printed no inspector URL (was it started with --inspect=127.0.0.1:0?)');
}

/** Connects; `heapUsed()` collects garbage (twice: weak references, finalizers) and returns the bytes in use. */
export async function openInspector(url) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let nextId = 1;
  const waiting = new Map();
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    const done = waiting.get(message.id);
    if (!done) return;
    waiting.delete(message.id);
    if (message.error) done.reject(new Error(message.error.message));
    else done.resolve(message.result);
  });
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    async heapUsed() {
      for (let i = 0; i < 3; i++) await call('HeapProfiler.collectGarbage');
      const { usedSize } = await call('Runtime.getHeapUsage');
      return usedSize;
    },
    close: () => ws.close(),
  };
}
