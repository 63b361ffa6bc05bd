// Bad input never gets a 500 (issue 8 item 5): every operation of the OpenAPI document, every parameter,
// a fixed list of hostile values, as a visitor, a customer and an admin. Asserts for each request: no 5xx;
// values that must be refused are (4xx); and a refused request changed no row of any table.
// The operations are dealt into FUZZ_PARTS test files (platform/http/fuzz-<n>.test.ts), each on its own
// app and database, so the growing API is fuzzed in parallel workers and no single test runs for minutes.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages, products, users } from '../db/schema';
import { BackgroundRuns } from '../platform/ai/background-runs';
import { buildUser } from './factories';
import { watchTableChanges } from './fuzz/change-log';
import { createCaseBuilder, operationsOf, type FuzzCase, type OpenApiDocument } from './fuzz/openapi-cases';
import { createTestApp, type TestApp } from './test-app';

/**
 * Operations fuzzed only without a session, because any call with one ends what the other cases need:
 * logout ends the caller's session, refresh rotates the caller's token (a second rotation revokes the whole
 * session family), and DELETE /api/users deletes the caller's account. They take no parameters, so the
 * anonymous pass (401 before anything runs) is their whole surface.
 */
const SESSION_ENDING = new Set(['POST /api/auth/logout', 'POST /api/auth/refresh', 'DELETE /api/users/']);

interface Failure {
  role: string;
  operation: string;
  slot: string;
  value: string;
  problem: string;
}

/**
 * Where a request is refused before validation, one slot of each kind (path, query, body, raw body) is sent
 * with every hostile value, not every slot: what reads it is the same for every field of that kind.
 * - A visitor on a signed-in route gets a 401 first: before that, only routing, the query-string parser and
 *   the body parser read the request, each the same code for every parameter of the route.
 * - A signed-in request refused by a gate (staff role, access, feature switch: platform/auth/guard.ts
 *   signedIn) has in addition been through authentication, which reads organization_id (query or body):
 *   those slots are kept too (`withOrganization`).
 * The admin, who passes the gates, sends every value to every slot.
 */
function oneSlotOfEachKind(cases: FuzzCase[], withOrganization = false): FuzzCase[] {
  const firstOfKind = new Map<string, string>();
  for (const c of cases) {
    const kind = c.slot.split(/[.[]/)[0];
    if (!firstOfKind.has(kind)) firstOfKind.set(kind, c.slot);
  }
  const kept = new Set(firstOfKind.values());
  return cases.filter((c) => kept.has(c.slot) || (withOrganization && c.slot.endsWith('.organization_id')));
}

/** Signed in only: a bearer requirement and no empty one (`[{}, { bearer: [] }]` is an optional token). */
const needsToken = (op: { security?: unknown[] }) => !!op.security?.length && !op.security.some((s) => !!s && typeof s === 'object' && Object.keys(s).length === 0);

/** How many files share the operations (fuzz-1.test.ts … fuzz-3.test.ts). */
export const FUZZ_PARTS = 3;

/** Fuzzes every FUZZ_PARTS-th operation of the API, starting at `part` (1-based). */
export function describeFuzz(part: number) {
describe(`OpenAPI fuzz: hostile input (part ${part} of ${FUZZ_PARTS})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // The per-user limit of PUT /api/auth/password comes from the environment; the per-IP limits are met
    // by giving each request its own address below.
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '1000000' });
  });
  afterAll(() => t.close());

  it('no request gets a 5xx, hostile values are refused, and refused requests change nothing', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json<OpenApiDocument>();
    // The API's operations; the document also lists the web app's fallback (GET /*, index.html for any
    // other path), which is not an API route and answers every path with the page.
    const all = operationsOf(doc).filter(([, path]) => path.startsWith('/api/'));
    expect(all.length).toBeGreaterThan(30);
    // Dealt by position in the document's stable order: every operation lands in exactly one part.
    const operations = all.filter((_, index) => index % FUZZ_PARTS === part - 1);

    // The customer has no purchase, so no chat generation starts (and writes) in the background.
    const customer = await buildUser(t.ctx);
    const admin = await buildUser(t.ctx, { staffRole: 'admin', access: true });
    const bystander = await buildUser(t.ctx);
    const [product] = await t.ctx.db.insert(products).values({ name: 'Fuzz plan', price: 10, wordAmount: 100, expirationDays: 30 }).returning();
    const [conversation] = await t.ctx.db.insert(conversations).values({ userId: customer.user.userId, name: 'Fuzz' }).returning();
    const [message] = await t.ctx.db
      .insert(messages)
      .values({ conversationId: conversation.conversationId, userId: customer.user.userId, role: 'user', content: 'hello' })
      .returning();
    // Required references point at real records, so a hostile value in another field reaches the service.
    const builder = createCaseBuilder(doc, {
      user_id: bystander.user.userId,
      product_id: product.productId,
      conversation_id: conversation.conversationId,
      message_id: message.messageId,
    });

    const roles: { role: string; headers: Record<string, string> }[] = [
      { role: 'visitor', headers: {} },
      { role: 'customer', headers: customer.auth },
      { role: 'admin', headers: admin.auth },
    ];
    const changesSinceLastLook = await watchTableChanges(t.ctx.database);
    const failures: Failure[] = [];
    let sent = 0;
    let ip = 0;
    const statuses = new Map<number, number>();

    // The detector itself sees a write (one that never saw anything would let every case pass)…
    await t.ctx.db.update(conversations).set({ name: 'Fuzz, renamed' }).where(eq(conversations.conversationId, conversation.conversationId));
    expect(await changesSinceLastLook()).toEqual(['conversations']);
    // …and not a read's touch of a volatile column, nor a write of the same values.
    await t.ctx.db.update(users).set({ lastUsedAt: new Date() }).where(eq(users.userId, customer.user.userId));
    await t.ctx.db.update(conversations).set({ name: 'Fuzz, renamed' }).where(eq(conversations.conversationId, conversation.conversationId));
    expect(await changesSinceLastLook()).toEqual([]);

    /**
     * After an accepted request: stop the generations it started (Super Fetch outputs, document generations,
     * widget answers save every 500 ms for seconds, so quiet gaps would not mean done), then wait until other
     * writes it started after answering (e.g. mail) have landed.
     */
    const settle = async () => {
      await BackgroundRuns.stopAll(t.ctx);
      for (let quiet = 0, i = 0; quiet < 2 && i < 80; i++) {
        await new Promise((r) => setTimeout(r, 10));
        quiet = (await changesSinceLastLook()).length === 0 ? quiet + 1 : 0;
      }
    };

    const send = (request: FuzzCase['request'], headers: Record<string, string>) => {
      ip += 1;
      sent += 1;
      return t.app.inject({
        method: request.method as 'GET',
        url: request.url,
        query: request.query,
        payload: request.payload,
        headers: { ...headers, ...request.headers },
        // Its own address per request, so the per-IP rate limits don't turn every later case into a 429.
        remoteAddress: `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`,
      });
    };

    /** Sends one case and records what went wrong with it; returns its status. */
    const run = async (c: FuzzCase, role: string, headers: Record<string, string>) => {
      const res = await send(c.request, headers);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      const fail = (problem: string) => failures.push({ role, operation: c.operation, slot: c.slot, value: c.value, problem });
      if (res.statusCode >= 500) fail(`${res.statusCode} ${res.body.slice(0, 200)}`);
      else if (c.mustRefuse && res.statusCode < 400) fail(`accepted with ${res.statusCode}`);
      if (res.statusCode >= 400) {
        const changed = await changesSinceLastLook();
        if (changed.length) fail(`refused with ${res.statusCode} but changed ${changed.join(', ')}`);
      } else {
        await changesSinceLastLook();
        // A read starts nothing that writes later (last_used_at is not a change): no need to wait.
        if (c.request.method !== 'GET') await settle();
      }
      return res.statusCode;
    };

    for (const { role, headers } of roles) {
      for (const [m, p, op] of operations) {
        if (role !== 'visitor' && SESSION_ENDING.has(`${m.toUpperCase()} ${p}`)) continue;
        // On PostgreSQL a visitor's cases on signed-in routes are skipped: each ends in a 401 before any query
        // (the PGlite run sends them all), so they would only repeat the same HTTP-layer work.
        if (role === 'visitor' && needsToken(op) && t.ctx.database.kind === 'postgres') continue;
        let cases = builder.casesFor(m, p, op);
        if (role === 'visitor' && needsToken(op)) cases = oneSlotOfEachKind(cases);
        if (role === 'customer') {
          // The undeclared-parameter case is the valid request (routes ignore what they don't declare), sent
          // first: where a gate refuses it (403/412), it refuses every case the same way.
          const valid = cases.find((c) => c.slot === 'query.(undeclared)');
          if (valid) {
            const status = await run(valid, role, headers);
            cases = cases.filter((c) => c !== valid);
            if (status === 403 || status === 412) cases = oneSlotOfEachKind(cases, true);
          }
        }
        for (const c of cases) await run(c, role, headers);
      }
      // The role's session outlived its cases: one that ended it would have turned every later case into a 401.
      if (role !== 'visitor') expect((await send({ method: 'GET', url: '/api/users' }, headers)).statusCode, `${role}'s session`).toBe(200);
    }

    console.log(
      `OpenAPI fuzz part ${part}/${FUZZ_PARTS}: ${sent} requests over ${operations.length} of ${all.length} operations (${t.ctx.database.kind}); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
    );
    const lines = failures.map((f) => `${f.role} ${f.operation} ${f.slot} = ${f.value}: ${f.problem}`);
    if (lines.length) console.log(lines.join('\n'));
    expect(lines.slice(0, 40), `${lines.length} failures`).toEqual([]);
  }, 600_000);
});
}
