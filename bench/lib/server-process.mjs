// Starts the built server (server/dist/main.js) as its own process and waits until it is healthy.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
// BENCH_SERVER_ENTRY: another build of the server (e.g. a copy of dist/ made before a change, kept inside
// server/ so it finds node_modules), to compare two builds on the same busy machine.
export const SERVER_ENTRY = process.env.BENCH_SERVER_ENTRY ? path.resolve(process.env.BENCH_SERVER_ENTRY) : path.join(ROOT, 'server', 'dist', 'main.js');

/** A port that was free a moment ago (the server is told it explicitly, so its URL is known). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

export function tempDataDir(label) {
  return mkdtempSync(path.join(tmpdir(), `pluma-bench-${label}-`));
}

/** CPU time (user + system, ms) of one thread from /proc; 0 once it is gone. Clock ticks are 10 ms on Linux. */
function threadCpuMs(pid, tid) {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * CPU time `pid` has used so far (Linux; null elsewhere): its main thread (JavaScript's event loop, where
 * the modules load) and the whole process (the database thread, V8's and libuv's threads). Unlike the
 * time to healthy, barely changed by other processes on a busy machine.
 */
export function cpuMs(pid) {
  if (process.platform !== 'linux') return null;
  let total = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) total += threadCpuMs(pid, tid);
  } catch {
    return null;
  }
  return { mainThread: threadCpuMs(pid, pid), process: total };
}

/** Polls GET `url` until it answers 200; resolves with the time it took since `since` (ms). */
async function waitFor200(url, since, child, output, timeoutMs) {
  let exitCode = null;
  child.once('exit', (code, signal) => (exitCode = code ?? signal));
  while (performance.now() - since < timeoutMs) {
    if (exitCode !== null) throw new Error(`server exited (${exitCode}) before it was healthy:\n${output.join('')}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no 200 from ${url} within ${timeoutMs} ms:\n${output.join('')}`);
}

/**
 * Spawns `node [nodeArgs] <entry> [args]` with `env` on a free port and waits for the first 200 from `healthPath`.
 * Returns { url, pid, startupMs, startupCpu (cpuMs when healthy), stop() }. Output is kept (last lines) to explain failures.
 */
export async function startProcess({ entry = SERVER_ENTRY, nodeArgs = [], args = [], env = {}, healthPath = '/api/health', timeoutMs = 120_000 }) {
  const port = await freePort();
  const output = [];
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 50) output.shift();
  };
  const since = performance.now();
  // BENCH_SERVER_NODE_ARGS adds Node flags to the Pluma server only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const extra = entry === SERVER_ENTRY ? (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean) : [];
  const child = spawn(process.execPath, [...extra, ...nodeArgs, entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopProcess(child);
  try {
    const startupMs = await waitFor200(url + healthPath, since, child, output, timeoutMs);
    return { url, pid: child.pid, startupMs, startupCpu: cpuMs(child.pid), stop, output };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** SIGTERM (the server shuts down cleanly), SIGKILL if it has not exited after 10 s. */
export function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}
