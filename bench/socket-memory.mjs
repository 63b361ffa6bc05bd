// Heap per idle socket: the server's JavaScript heap (after garbage collection) with SOCKETS idle
// connected sockets minus before them, divided by SOCKETS. Baseline: Socket.IO alone (same version and
// options, bench/lib/bare-socket-server.mjs) measured the same way in the same run. Goal (issue 31 item 3):
// ≤ 10 KB a socket. The heap is read over the inspector (--inspect), so the product has no hook for it.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ApiClient, connectSocket, inParallel } from './chat-client.mjs';
import { inspectorUrl, openInspector } from './lib/inspector.mjs';
import { removeDir, ROOT, startProcess, tempDataDir } from './lib/server-process.mjs';

const SOCKETS = 500;
const WARM_UP = 100;
const GOAL_KB = 10;
const SETTLE_MS = 2000;
const INSPECT = '--inspect=127.0.0.1:0';

/** Heap bytes per socket of the server at `url` (started with --inspect), for sockets opened with `token`. */
async function perSocket(server, token) {
  const inspector = await openInspector(await inspectorUrl(server.output));
  const sockets = [];
  try {
    // Warm-up: the first sockets compile code (Socket.IO's, ours) that later ones reuse; it is not per socket.
    const warm = await inParallel(WARM_UP, 25, async () => (await connectSocket(server.url, token)).socket);
    for (const socket of warm) socket.close();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const before = await inspector.heapUsed();
    await inParallel(SOCKETS, 25, async () => sockets.push((await connectSocket(server.url, token)).socket));
    // The server checks each new socket's session once (socket-sessions.ts): let that finish.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const after = await inspector.heapUsed();
    return (after - before) / SOCKETS;
  } finally {
    for (const socket of sockets) socket.close();
    inspector.close();
  }
}

async function bareSocketIo() {
  const server = await startProcess({ entry: path.join(ROOT, 'bench', 'lib', 'bare-socket-server.mjs'), nodeArgs: [INSPECT], healthPath: '/' });
  try {
    return await perSocket(server, 'none');
  } finally {
    await server.stop();
  }
}

async function pluma() {
  const dataDir = tempDataDir('socket-memory');
  const email = 'bench-admin@example.com';
  const password = randomBytes(12).toString('base64url');
  const server = await startProcess({
    nodeArgs: [INSPECT],
    // The machine may be busy with other work: a first boot then takes long.
    timeoutMs: 300_000,
    env: { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', ADMIN_EMAIL: email, ADMIN_PASSWORD: password, DEMO_AI: 'false' },
  });
  try {
    const api = new ApiClient(server.url);
    const { token } = await api.expect(200, 'POST', '/api/auth/login', { email, password });
    api.close();
    return await perSocket(server, token);
  } finally {
    await server.stop();
    removeDir(dataDir);
  }
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

export default async function socketMemory() {
  const baseline = await bareSocketIo();
  const own = await pluma();
  return [
    {
      benchmark: 'Socket memory',
      measure: `heap per idle socket, ${SOCKETS} sockets (PGlite)`,
      value: kb(own),
      baseline: `${kb(baseline)} (Socket.IO alone)`,
      ratio: `${(own / baseline).toFixed(2)}× Socket.IO alone`,
      goal: `≤ ${GOAL_KB} KB ${own <= GOAL_KB * 1024 ? 'met' : 'MISSED'}`,
      note: `JavaScript heap after garbage collection (inspector) with the sockets connected minus before (after ${WARM_UP} sockets opened and closed to warm up), ÷ sockets; one signed-in session, websocket transport; the client runs on the same machine`,
    },
  ];
}
