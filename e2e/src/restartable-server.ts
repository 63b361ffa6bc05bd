// A built server of its own for journeys that stop and restart it (e.g. chat resilience): the same
// DATA_DIR (embedded PGlite) and port on every start, so the browser's page and session survive a
// restart and its socket reconnects to the same address. server-process.ts starts the shared one.
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { freePort, newDataDir, renderOnce, requireBuild, serverEnvironment, spawnServer, stopChild, waitForHealth, type ServerOptions } from './server-process';

export interface RestartableServer {
  baseUrl: string;
  /** Starts the server and waits for /api/health. */
  start(): Promise<void>;
  /** SIGTERM, as a deployment's restart does: the server saves running answers as interrupted, then exits. */
  stop(): Promise<void>;
  /** Stops it for good and removes its data. */
  dispose(): Promise<void>;
}

export async function restartableServer(options: ServerOptions): Promise<RestartableServer> {
  requireBuild();
  const dataDir = newDataDir('pluma-e2e-restart-', options.seededDataDir);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = serverEnvironment(port, dataDir, options.env);
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile);
  let child: ChildProcess | null = null;

  const stop = async () => {
    const running = child;
    child = null;
    if (running) await stopChild(running);
  };

  const start = async () => {
    if (child) return;
    child = spawnServer(env, log);
    try {
      await waitForHealth(baseUrl, child, 90_000);
      await renderOnce(baseUrl);
    } catch (err) {
      await stop();
      throw new Error(`${(err as Error).message} (log: ${path.relative(process.cwd(), options.logFile)})`);
    }
  };

  return {
    baseUrl,
    start,
    stop,
    async dispose() {
      await stop();
      log.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
