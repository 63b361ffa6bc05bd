// Starts the built server (`node server/dist/main.js`) as a child process on a fresh PGlite DATA_DIR and a
// free port, and stops it. Used by the journeys (global setup and the journeys with a server of their own)
// and by scripts/screenshots.mjs.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..');
export const serverEntry = path.join(repoRoot, 'server', 'dist', 'main.js');
export const webIndex = path.join(repoRoot, 'web', 'dist', 'index.html');

/** The admin of every journeys' server: created once, in the seeded data directory (seedDataDir). */
export const E2E_ADMIN = { email: 'admin@e2e.pluma.test', password: 'e2e-admin-Secret-123' } as const;

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  logFile: string;
  stop(): Promise<void>;
}

/** Asks the OS for a port that is free right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The environment of a built server on a fresh embedded database, with no external services. */
export function serverEnvironment(port: number, dataDir: string, overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // A fresh embedded database and no external services, whatever the calling shell has set.
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'SMTP_URL', 'PUBLIC_URL', 'APP_SECRET', 'WEB_DIST_DIR', 'TEST_DB']) {
    delete env[name];
  }
  return Object.assign(env, {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DEMO_AI: 'true',
    // The Demo model unpaced: a journey that must see an answer arrive asks for a pace (`[rate:N]`).
    DEMO_TOKEN_DELAY_MS: '0',
    // Journeys sign in many times from one address; the per-minute auth limit is not what they test.
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    // Each simulated visitor sends its own X-Forwarded-For (e2e/src/visitors.ts), as behind a proxy.
    TRUST_PROXY: 'true',
    ...overrides,
  });
}

/** Throws when the build the journeys drive is missing. */
export function requireBuild() {
  for (const file of [serverEntry, webIndex]) {
    if (!existsSync(file)) throw new Error(`${path.relative(repoRoot, file)} is missing: run \`npm run build\` first.`);
  }
}

/** Spawns the built server with `env`, its output appended to `log`. */
export function spawnServer(env: NodeJS.ProcessEnv, log: NodeJS.WritableStream): ChildProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', serverEntry], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  // A run stopped midway (Ctrl+C) skips its teardown: the server must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  return child;
}

/**
 * A new DATA_DIR: a copy of `seededDataDir` when given (a first boot there ran initdb, the migrations and
 * the seeds, which take many seconds), else empty.
 */
export function newDataDir(prefix: string, seededDataDir?: string): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  if (seededDataDir) cpSync(seededDataDir, dataDir, { recursive: true });
  return dataDir;
}

/**
 * Boots the built server once on an empty DATA_DIR (database, migrations, seeds, the admin E2E_ADMIN),
 * stops it cleanly and returns that directory, for newDataDir to copy. The caller removes it.
 */
export async function seedDataDir(logFile: string): Promise<{ dataDir: string; adminDeviceToken: string }> {
  const dataDir = newDataDir('pluma-e2e-seed-');
  const { child, log, baseUrl } = await boot(dataDir, { ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password }, logFile);
  try {
    return { dataDir, adminDeviceToken: await enrollAdminSecondFactor(baseUrl) };
  } finally {
    await stopChild(child);
    log.end();
  }
}

async function postJson<T>(baseUrl: string, pathname: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseUrl}/api${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  if (!response.ok) throw new Error(`POST ${pathname} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Staff admins need a second factor for the back office (issue 33): the seeded admin turns TOTP on here,
 * computing the code as an authenticator app would, and this "device" is remembered. Every journey then
 * signs in as the admin with that device token (journey-steps.ts fillLogin, api.ts adminSessionToken), so
 * no journey waits for a fresh 30-second code. The data directory copies carry it to every server.
 */
async function enrollAdminSecondFactor(baseUrl: string): Promise<string> {
  const { token } = await postJson<{ token: string }>(baseUrl, '/auth/login', E2E_ADMIN);
  const { secret } = await postJson<{ secret: string }>(baseUrl, '/auth/two-factor/setup', {}, token);
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
  const enabled = await postJson<{ device_token?: string }>(baseUrl, '/auth/two-factor/confirm', { code, remember_device: true }, token);
  if (!enabled.device_token) throw new Error('two-factor confirm gave no device token');
  return enabled.device_token;
}

export interface ServerOptions {
  env: Record<string, string>;
  logFile: string;
  /** Start from a copy of this directory (seedDataDir): its admin is E2E_ADMIN, whatever ADMIN_EMAIL says. */
  seededDataDir?: string;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const dataDir = newDataDir('pluma-e2e-', options.seededDataDir);
  const { child, log, baseUrl } = await boot(dataDir, options.env, options.logFile);
  const server: RunningServer = {
    baseUrl,
    dataDir,
    logFile: options.logFile,
    async stop() {
      await stopChild(child);
      log.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await renderOnce(baseUrl);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

/** Spawns the built server on `dataDir` and a free port, and waits for /api/health (else removes `dataDir` and throws). */
async function boot(dataDir: string, env: Record<string, string>, logFile: string) {
  requireBuild();
  const port = await freePort();
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  const child = spawnServer(serverEnvironment(port, dataDir, env), log);
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, 90_000);
  } catch (err) {
    await stopChild(child);
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`${(err as Error).message} (server log: ${path.relative(repoRoot, logFile)})`);
  }
  return { child, log, baseUrl };
}

/**
 * Renders the app's page once: a new server's first page costs seconds (measured up to ~9 s on a loaded
 * 2-core machine), which a journey's first navigation would otherwise pay within its 15 s timeout.
 */
export async function renderOnce(baseUrl: string): Promise<void> {
  const response = await fetch(`${baseUrl}/`, { headers: { 'accept-encoding': 'br, gzip' } });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`GET ${baseUrl}/ answered ${response.status}`);
}

export async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`the server exited with code ${exited} before it was healthy`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer /api/health within ${timeoutMs / 1000} s`);
}

/** SIGTERM, as a deployment's restart does (running answers are saved as interrupted), then SIGKILL after 15 s. */
export async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
