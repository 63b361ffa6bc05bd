// Shared set-up of the chat benchmarks: the OpenAI wire-protocol emulator in its own process, the built
// server pointed at it (PGlite or a scratch PostgreSQL database), and users with access, a conversation
// each and an open socket. Nothing here measures; the chat-*.mjs benchmarks do.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ApiClient, clientAddress, connectSocket, ConversationWatcher, inParallel } from './chat-client.mjs';
import { createScratchDatabase, postgresAvailable } from './lib/postgres.mjs';
import { removeDir, ROOT, startProcess, stopProcess, tempDataDir } from './lib/server-process.mjs';
import { adminToken } from './lib/admin-session.mjs';

const EMULATOR_CLI = path.join(ROOT, 'emulators', 'src', 'cli.ts');

/**
 * Starts the AI emulators (TypeScript, run through tsx) on free ports; resolves { url, stop() } where
 * `url` is the OpenAI base URL (…/v1). No default token delay: prompts set their pace with [rate:N].
 */
export function startEmulator() {
  const child = spawn(process.execPath, ['--import', 'tsx', EMULATOR_CLI, '--openai-port', '0', '--anthropic-port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`the emulator did not start within 30 s:\n${output.join('')}`)), 30_000);
    const fail = (err) => {
      clearTimeout(timer);
      void stopProcess(child);
      reject(err);
    };
    child.once('exit', (code) => fail(new Error(`the emulator exited (${code}):\n${output.join('')}`)));
    child.stderr.on('data', (chunk) => output.push(chunk.toString()));
    child.stdout.on('data', (chunk) => {
      output.push(chunk.toString());
      const found = output.join('').match(/OPENAI_BASE_URL=(\S+)/);
      if (!found) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ url: found[1], stop: () => stopProcess(child) });
    });
  });
}

/**
 * Runs `measure(server)` once per database kind — PGlite always, PostgreSQL when a server answers —
 * each on a fresh server process. Returns the rows of both; a kind that cannot run gives `unavailable(kind, reason)`.
 */
export async function perDatabase(measure, unavailable, serverOptions = {}) {
  const rows = [];
  try {
    rows.push(...(await withServer('PGlite', null, measure, serverOptions)));
  } catch (err) {
    rows.push(...unavailable('PGlite', err.stack ?? String(err)));
  }
  if (!(await postgresAvailable())) {
    rows.push(...unavailable('PostgreSQL', 'no PostgreSQL server answered (set BENCH_DATABASE_URL)'));
    return rows;
  }
  let database;
  try {
    database = await createScratchDatabase('chat');
    rows.push(...(await withServer('PostgreSQL', database.url, measure, serverOptions)));
  } catch (err) {
    rows.push(...unavailable('PostgreSQL', err.stack ?? String(err)));
  } finally {
    await database?.drop().catch(() => undefined);
  }
  return rows;
}

/**
 * Starts an emulator and the built server (OPENAI_API_KEY=bench at the emulator, demo model off), logs
 * the admin in, runs `measure({ kind, url, pid, admin, emulatorUrl })` and stops everything. `env` and
 * `nodeArgs` go to the server process (e.g. AI_MAX_ANSWER_TOKENS, or --cpu-prof when looking for a cause).
 */
export async function withServer(kind, databaseUrl, measure, { env = {}, nodeArgs = [] } = {}) {
  const emulator = await startEmulator();
  const dataDir = tempDataDir(`chat-${kind.toLowerCase()}`);
  const email = 'bench-admin@example.com';
  const password = randomBytes(12).toString('base64url');
  let server;
  try {
    server = await startProcess({
      nodeArgs,
      env: {
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl ?? '',
        REDIS_URL: '',
        ADMIN_EMAIL: email,
        ADMIN_PASSWORD: password,
        OPENAI_API_KEY: 'bench',
        OPENAI_BASE_URL: emulator.url,
        DEMO_AI: 'false',
        ...env,
      },
    });
    const anonymous = new ApiClient(server.url);
    // Giving access is a staff admin's act: signed in with a second factor (lib/admin-session.mjs).
    const admin = anonymous.withToken(await adminToken(server.url, email, password));
    return await measure({ kind, url: server.url, pid: server.pid, admin, emulatorUrl: emulator.url });
  } finally {
    await server?.stop();
    await emulator.stop();
    removeDir(dataDir);
  }
}

/** The product whose purchase gives unlimited words (word_amount null), so long answers never run out. */
async function unlimitedProductId(admin) {
  const products = await admin.expect(200, 'GET', '/api/products/available');
  const product = products.find((p) => p.word_amount === null) ?? products[0];
  if (!product) throw new Error('GET /api/products/available listed no product to grant');
  return product.product_id;
}

/**
 * `count` users, each signed up from its own loopback address (the sign-up limit is per IP), given
 * access by the admin, with one conversation and a connected socket:
 * [{ index, api, userId, conversationId, socket, counter, watcher }].
 */
export async function chatUsers(server, count, { runId = randomBytes(3).toString('hex') } = {}) {
  const productId = await unlimitedProductId(server.admin);
  const users = await inParallel(count, 8, async (index) => {
    const anonymous = new ApiClient(server.url, { localAddress: clientAddress(index) });
    const signup = await anonymous.expect(201, 'POST', '/api/auth/signup', {
      name: 'Bench',
      last_name: `User ${index}`,
      email: `bench-${runId}-${index}@example.com`,
      password: randomBytes(12).toString('base64url'),
      phone: '+1555010' + String(index).padStart(4, '0'),
    });
    const api = anonymous.withToken(signup.token);
    await server.admin.expect(201, 'POST', '/api/users/giveAccess', { user_id: signup.user.user_id, product_id: productId, gift: true });
    const conversation = await api.expect(201, 'POST', '/api/conversations', { name: `Bench ${index}` });
    const { socket, counter } = await connectSocket(server.url, signup.token, { localAddress: clientAddress(index) });
    return { index, api, userId: signup.user.user_id, conversationId: conversation.conversation_id, socket, counter, watcher: new ConversationWatcher(socket, counter) };
  });
  return users;
}

export function closeUsers(users) {
  for (const user of users) {
    user.socket.close();
    user.api.close();
  }
}
