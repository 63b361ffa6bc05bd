// Requests/s of authenticated GET /api/users against a bare route of the same process
// (GET /api/bench/bare, registered when BENCH_BARE_ROUTE=1): the cost of auth + database per request.
// Goal: the authenticated route keeps at least 50% of the bare route's throughput.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { createScratchDatabase, postgresAvailable } from './lib/postgres.mjs';
import { removeDir, startProcess, tempDataDir } from './lib/server-process.mjs';
import { formatPercent, formatRate } from './lib/table.mjs';

const DURATION_S = 5;
const WARMUP_S = 1;
const CONNECTIONS = 10;
const GOAL = 0.5;

async function load(url, headers, duration) {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration });
  return {
    rate: result.requests.average,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

async function logIn(baseUrl, email, password) {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = await res.json().catch(() => ({}));
  const token = body.token ?? body.access_token ?? body.accessToken ?? body.idToken ?? body.session?.token;
  if (res.status !== 200 || typeof token !== 'string') {
    throw new Error(`POST /api/auth/login answered ${res.status} ${JSON.stringify(body).slice(0, 200)} (is the login route and the ADMIN_EMAIL seed in place?)`);
  }
  return token;
}

/** One database kind: start, log in, warm up, then measure the bare route and GET /api/users. */
async function measure(kind, databaseUrl) {
  const dataDir = tempDataDir(`rps-${kind}`);
  const email = 'bench-admin@example.com';
  const password = randomBytes(12).toString('base64url');
  let server;
  try {
    server = await startProcess({
      env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', REDIS_URL: '', ADMIN_EMAIL: email, ADMIN_PASSWORD: password, BENCH_BARE_ROUTE: '1' },
    });
    const token = await logIn(server.url, email, password);
    const headers = { authorization: `Bearer ${token}` };
    const probe = await fetch(`${server.url}/api/users`, { headers });
    if (probe.status !== 200) throw new Error(`GET /api/users answered ${probe.status} with a fresh token`);
    const bareUrl = `${server.url}/api/bench/bare`;
    const usersUrl = `${server.url}/api/users`;
    await load(bareUrl, {}, WARMUP_S);
    await load(usersUrl, headers, WARMUP_S);
    const bare = await load(bareUrl, {}, DURATION_S);
    const users = await load(usersUrl, headers, DURATION_S);
    const ratio = users.rate / bare.rate;
    const failures = bare.failures + users.failures;
    return [
      {
        benchmark: `API throughput (${kind})`,
        measure: 'GET /api/users (authenticated)',
        value: `${formatRate(users.rate)}, p99 ${users.p99} ms`,
        baseline: `${formatRate(bare.rate)}, p99 ${bare.p99} ms (bare route)`,
        ratio: formatPercent(ratio),
        goal: `≥ ${formatPercent(GOAL)} ${ratio >= GOAL ? '(met)' : '(below)'}`,
        note: [
          `${CONNECTIONS} connections, ${DURATION_S} s per route after a ${WARMUP_S} s warm-up; one server process, LOG_LEVEL=warn`,
          failures ? `${failures} requests FAILED (non-2xx, errors or timeouts): figures are suspect` : '',
        ]
          .filter(Boolean)
          .join('; '),
      },
    ];
  } finally {
    await server?.stop();
    removeDir(dataDir);
  }
}

function unavailable(kind, reason) {
  return { benchmark: `API throughput (${kind})`, measure: 'GET /api/users (authenticated)', value: 'n/a', goal: `≥ ${formatPercent(GOAL)}`, note: reason };
}

export default async function apiThroughput() {
  const rows = [];
  try {
    rows.push(...(await measure('PGlite')));
  } catch (err) {
    rows.push(unavailable('PGlite', err.message));
  }
  if (!(await postgresAvailable())) {
    rows.push(unavailable('PostgreSQL', 'no PostgreSQL server answered (set BENCH_DATABASE_URL)'));
    return rows;
  }
  const database = await createScratchDatabase('rps');
  try {
    rows.push(...(await measure('PostgreSQL', database.url)));
  } catch (err) {
    rows.push(unavailable('PostgreSQL', err.message));
  } finally {
    await database.drop();
  }
  return rows;
}
