// Back-office at scale (issue 11 item 8): the staff lists and analytics on a large PostgreSQL database
// next to the same requests on 10,000 customers, measured in one run. For each size: a scratch database,
// the built server on it (migrations, first admin), a seed written in SQL with generate_series (customers,
// a few staff, products, ~5 purchases and ~5 invoices per customer, the credits ledger the customers list
// reads), ANALYZE, then p50/p95 of real HTTP requests as the admin. Goals: lists p95 ≤ 50 ms, analytics
// p95 ≤ 200 ms. Never asserts. BENCH_SCALE_CUSTOMERS sets the large size (default 1,000,000);
// BENCH_SCALE_KEEP=1 keeps both databases afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createScratchDatabase, postgresAvailable } from './lib/postgres.mjs';
import { removeDir, startProcess, tempDataDir } from './lib/server-process.mjs';
import { formatMs } from './lib/table.mjs';
import { adminToken } from './lib/admin-session.mjs';

const BASELINE_CUSTOMERS = 10_000;
const LARGE_CUSTOMERS = Number(process.env.BENCH_SCALE_CUSTOMERS || 1_000_000);
const PURCHASES_PER_CUSTOMER = 5; // plus about one invoice per paid purchase: ~10 records per customer
const WARMUP = 5;
const SAMPLES = 30;
const LIST_GOAL_MS = 50;
const ANALYTICS_GOAL_MS = 200;
/** A request that takes seconds is not sampled 35 times: each measure stops after this long (fewer samples, said in the row). */
const MEASURE_BUDGET_MS = 20_000;

const FIRST_NAMES = ['Ana', 'Luis', 'María', 'José', 'Carmen', 'Juan', 'Lucía', 'Carlos', 'Sofía', 'Miguel', 'Emma', 'Liam', 'Olivia', 'Noah', 'Ava', 'Ethan', 'Mia', 'Lucas', 'Elena', 'Diego'];
const LAST_NAMES = ['García', 'López', 'Martínez', 'Hernández', 'González', 'Pérez', 'Sánchez', 'Ramírez', 'Torres', 'Flores', 'Smith', 'Johnson', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Moore', 'Taylor', 'Clark'];
const sqlArray = (values) => `(array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}])`;

/**
 * The seed, in SQL. Triggers and foreign-key checks are off for the session (session_replication_role)
 * and the big tables' secondary indexes are dropped during the insert and rebuilt after: one sort per
 * index instead of millions of random inserts. Dates are spread over the last two years.
 */
function seedStatements(customers) {
  const purchases = customers * PURCHASES_PER_CUSTOMER;
  return [
    ['customers', `insert into users (name, last_name, email, phone, lang, available_words, created_at, updated_at, last_used_at)
      select ${sqlArray(FIRST_NAMES)}[1 + g % 20], ${sqlArray(LAST_NAMES)}[1 + (g / 20) % 20],
        'customer' || g || '@example' || (g % 7) || '.com', '55' || lpad((g::bigint * 7919 % 100000000)::text, 8, '0'),
        case when g % 3 = 0 then 'es' else 'en' end, (g * 37) % 50000,
        c.created_at, c.created_at,
        case when g % 10 < 7 then c.created_at + (now() - c.created_at) * random() end
      from generate_series(1, ${customers}) g
      -- Sign-ups in id order over two years (as a live table grows), a few minutes of jitter.
      cross join lateral (select now() - interval '730 days' * (1 - g::float8 / ${customers}) - interval '5 minutes' * random() as created_at) c`],
    // A few staff (the first admin is the server's own).
    ['staff', `insert into staff (user_id, role) select user_id, case when user_id % 2 = 0 then 'manager' else 'admin' end
      from users where email like 'customer%' order by user_id limit 5`],
    ['products', `insert into products (name, description, price, word_amount, is_subscription, expiration_days, subscription_period, subscription_interval)
      select 'Plan ' || g, 'Bench product ' || g, (array[9, 19, 29, 49, 99, 149, 199, 299])[g],
        case when g = 8 then null else g * 10000 end, g % 2 = 0, 30, case when g % 2 = 0 then 'month' end, case when g % 2 = 0 then 1 end
      from generate_series(1, 8) g`],
    // Purchases: statuses as in reality, amounts of the product, one gift in twenty.
    ['purchases', `with bounds as (select min(user_id) as lo, max(user_id) - min(user_id) + 1 as n from users where email like 'customer%'),
        prods as (select array_agg(product_id order by product_id) as ids, array_agg(price order by product_id) as prices from products where name like 'Plan %'),
        pms as (select array_agg(payment_method_id order by payment_method_id) as ids from payment_methods)
      insert into purchases (user_id, product_id, status, amount, total_payment, is_gift, payment_method_id, expiration_days, cancel_reason, cancelled_at, created_at, updated_at)
      select b.lo + floor(b.n * r.share * power(r.a, 1.3))::int, prods.ids[1 + g % 8],
        s.status, prods.prices[1 + g % 8], case when g % 20 = 0 then 0 else prods.prices[1 + g % 8] end, g % 20 = 0,
        pms.ids[1 + g % coalesce(array_length(pms.ids, 1), 1)], 30,
        case when s.status = 'cancelled' then 'Customer asked' end,
        case when s.status = 'cancelled' then r.at + interval '10 days' end, r.at, r.at
      from generate_series(1, ${purchases}) g cross join bounds b cross join prods cross join pms
      -- Purchases in id order over the two years, each by a customer who had signed up by then (the first
      -- share of the customers), older customers more often.
      cross join lateral (select random() as a, g::float8 / ${purchases} as share, now() - interval '730 days' * (1 - g::float8 / ${purchases}) as at) r
      cross join lateral (select case when g % 100 < 45 then 'active' when g % 100 < 70 then 'completed' when g % 100 < 82 then 'cancelled'
        when g % 100 < 90 then 'pending' when g % 100 < 96 then 'failed' else 'revoked' end as status) s`],
    // One invoice per purchase that is no gift: paid when the purchase was, else pending or failed.
    ['invoices', `insert into invoices (purchase_id, user_id, status, amount, total_payment, payment_method_id, order_id, created_at, updated_at)
      select p.purchase_id, p.user_id,
        case when p.status in ('active', 'completed', 'cancelled') then 'paid' when p.status = 'pending' then 'pending' else 'failed' end,
        p.amount, p.total_payment, p.payment_method_id, 'in_' || p.purchase_id, p.created_at + interval '1 minute', p.created_at + interval '1 minute'
      from purchases p where not p.is_gift order by p.purchase_id`],
    // The words each customer used (what the list's Total Words sums): a few charges per customer who used the app.
    ['credits ledger', `insert into credit_ledger (user_id, words, balance_after, source_type, source_id, created_at)
      select u.user_id, -(100 + (u.user_id * k) % 4000), 10000, 'message', 'bench-' || u.user_id || '-' || k, u.last_used_at - interval '1 hour' * k
      from users u cross join generate_series(1, 3) k where u.last_used_at is not null`],
  ];
}

const BIG_TABLES = ['users', 'purchases', 'invoices', 'credit_ledger'];

export async function seed(databaseUrl, customers) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const timings = [];
  try {
    await client.query(`set session_replication_role = replica; set maintenance_work_mem = '256MB'; set work_mem = '64MB'`);
    // Secondary indexes (not primary keys or unique ones): dropped now, rebuilt after the insert.
    const { rows: indexes } = await client.query(
      `select i.indexname, i.indexdef from pg_indexes i join pg_index x on x.indexrelid = (quote_ident(i.indexname))::regclass
       where i.schemaname = 'public' and i.tablename = any($1) and not x.indisunique and not x.indisprimary`,
      [BIG_TABLES],
    );
    for (const { indexname } of indexes) await client.query(`drop index "${indexname}"`);
    for (const [label, statement] of seedStatements(customers)) {
      const started = performance.now();
      const result = await client.query(statement);
      timings.push({ label, rows: result.rowCount, ms: performance.now() - started });
    }
    let started = performance.now();
    for (const { indexdef } of indexes) await client.query(indexdef);
    timings.push({ label: `${indexes.length} indexes rebuilt`, rows: null, ms: performance.now() - started });
    started = performance.now();
    await refreshCustomerFigures(client);
    timings.push({ label: 'summaries', rows: null, ms: performance.now() - started });
    started = performance.now();
    // VACUUM as autovacuum would after such a load: the visibility map lets the lists' and analytics'
    // index-only scans skip the table (ANALYZE alone left every page unmarked). ANALYZE also samples the
    // trigram statistics of migration 0014, which the customers search reads to pick its rarest trigrams.
    await client.query('vacuum analyze');
    timings.push({ label: 'VACUUM ANALYZE', rows: null, ms: performance.now() - started });
  } finally {
    await client.end();
  }
  return timings;
}

/**
 * The seed ran without triggers, so what the triggers keep — the per-customer figures (users.words_used and
 * users.lifetime_value, migration 0009) and the per-day summaries (daily_* tables, 0011), when the schema
 * has them — is computed here once, as the migrations' backfills do.
 */
async function refreshCustomerFigures(client) {
  const { rows } = await client.query(`select proname from pg_proc where proname in ('pluma_backfill_customer_figures', 'pluma_backfill_daily_figures')`);
  const functions = new Set(rows.map((r) => r.proname));
  if (functions.has('pluma_backfill_customer_figures')) await client.query(`select pluma_backfill_customer_figures()`);
  if (functions.has('pluma_backfill_daily_figures')) await client.query(`select pluma_backfill_daily_figures()`);
}

async function timed(url, headers) {
  const started = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return ms;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The requests measured, as the screens send them (current month, 50 or 12 a page). */
function scenarios(productId) {
  const now = new Date();
  const day = (d) => d.toISOString().slice(0, 10);
  const monthStart = day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
  const monthEnd = day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)));
  const month = `start_date=${monthStart}&end_date=${monthEnd}`;
  const year = `start_date=${day(new Date(Date.now() - 365 * 86400_000))}&end_date=${day(now)}`;
  return [
    ['list', 'customers by LTV, this month', `/api/users/admin/all?sort=ltv&direction=desc&${month}`],
    ['list', 'customers by last used, this month', `/api/users/admin/all?sort=last_used&direction=desc&${month}`],
    ['list', 'customers by LTV, all time', `/api/users/admin/all?sort=ltv&direction=desc`],
    ['list', 'customers by last used, all time', `/api/users/admin/all?sort=last_used&direction=desc`],
    ['list', 'customers by total words, all time', `/api/users/admin/all?sort=total_words&direction=desc`],
    ['list', 'customers search "garcía", this month', `/api/users/admin/all?query=garc%C3%ADa&field=all&${month}`],
    ['list', 'customers search email, all time', `/api/users/admin/all?query=customer4242%40&field=email`],
    ['list', 'customers by LTV, page 100, all time', `/api/users/admin/all?sort=ltv&direction=desc&page=100`],
    ['list', 'purchases, this month', `/api/purchases/admin?page=1`],
    ['list', 'purchases: successful, product, this month', `/api/purchases/admin?page=1&status=successful&type=purchases&product_id=${productId}`],
    ['list', 'purchases: search "garcía", this month', `/api/purchases/admin?page=1&query=garc%C3%ADa`],
    ['list', 'purchases, page 20, this month', `/api/purchases/admin?page=20`],
    ['analytics', 'income, this month', `/api/analytics/income?${month}`],
    ['analytics', 'customers, this month', `/api/analytics/customers?${month}`],
    ['analytics', 'products, this month', `/api/analytics/purchases?${month}`],
    ['analytics', 'monthly, last 12 months', `/api/analytics/monthly?${year}`],
  ];
}

/** One size: scratch database, server, seed, measurements. Returns { seedMs, timings, figures: Map<name, {p50, p95}> }. */
async function measureSize(customers) {
  const database = await createScratchDatabase(`scale${customers}`);
  const dataDir = tempDataDir('scale');
  const email = 'bench-admin@example.com';
  const password = randomBytes(12).toString('base64url');
  let server;
  try {
    server = await startProcess({ env: { DATA_DIR: dataDir, DATABASE_URL: database.url, REDIS_URL: '', ADMIN_EMAIL: email, ADMIN_PASSWORD: password } });
    const started = performance.now();
    const timings = await seed(database.url, customers);
    const seedMs = performance.now() - started;
    // The back office needs a staff admin who passed a second factor (lib/admin-session.mjs).
    const token = await adminToken(server.url, email, password);
    const headers = { authorization: `Bearer ${token}` };
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query(`select product_id from products where name = 'Plan 3'`);
    await client.end();
    const figures = new Map();
    for (const [kind, name, path] of scenarios(rows[0].product_id)) {
      const since = performance.now();
      const overBudget = () => performance.now() - since > MEASURE_BUDGET_MS;
      for (let i = 0; i < WARMUP && !overBudget(); i++) await timed(server.url + path, headers);
      const samples = [];
      for (let i = 0; i < SAMPLES && (samples.length < 3 || !overBudget()); i++) samples.push(await timed(server.url + path, headers));
      figures.set(name, { kind, p50: percentile(samples, 50), p95: percentile(samples, 95), samples: samples.length });
    }
    return { seedMs, timings, figures };
  } finally {
    await server?.stop();
    removeDir(dataDir);
    // BENCH_SCALE_KEEP=1 keeps the seeded databases for EXPLAIN (their URLs are printed); dropped otherwise.
    if (process.env.BENCH_SCALE_KEEP) console.error(`kept ${customers} customers: ${database.url}`);
    else await database.drop().catch(() => undefined);
  }
}

const seedNote = (size) =>
  `seeded in ${formatMs(size.seedMs)}: ` + size.timings.map((t) => `${t.label}${t.rows != null ? ` ${t.rows.toLocaleString('en-US')} rows` : ''} ${formatMs(t.ms)}`).join(', ');

export default async function backofficeScale() {
  const name = 'Back-office scale';
  if (!(await postgresAvailable())) return [{ benchmark: name, measure: 'all', value: 'n/a', note: 'no PostgreSQL server answered (set BENCH_DATABASE_URL)' }];
  const baseline = await measureSize(BASELINE_CUSTOMERS);
  const large = await measureSize(LARGE_CUSTOMERS);
  const label = `${LARGE_CUSTOMERS.toLocaleString('en-US')} customers`;
  const rows = [];
  for (const [measure, figure] of large.figures) {
    const base = baseline.figures.get(measure);
    const goal = figure.kind === 'list' ? LIST_GOAL_MS : ANALYTICS_GOAL_MS;
    rows.push({
      benchmark: `${name} (${label})`,
      measure: `${measure} p95`,
      value: `${formatMs(figure.p95)} (p50 ${formatMs(figure.p50)}${figure.samples < SAMPLES ? `, ${figure.samples} samples` : ''})`,
      baseline: `${formatMs(base.p95)} (10,000 customers)`,
      ratio: `${(figure.p95 / base.p95).toFixed(1)}×`,
      goal: `≤ ${goal} ms ${figure.p95 <= goal ? '(met)' : '(MISSED)'}`,
    });
  }
  rows.push({ benchmark: `${name} (${label})`, measure: 'seeding (SQL)', value: formatMs(large.seedMs), baseline: `${formatMs(baseline.seedMs)} (10,000 customers)`, note: seedNote(large) });
  rows[0].note = `PostgreSQL, ${WARMUP} warm-up then ${SAMPLES} sequential requests each through the HTTP API as an admin; "this month" is the screens' default range`;
  return rows;
}
