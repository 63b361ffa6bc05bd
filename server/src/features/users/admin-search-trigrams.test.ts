// The customers search asks the trigram indexes for a query's rarest trigrams and checks the whole query on
// what they give (trigram-search.ts, docs/decisions.md "Back-office at scale"). It must find exactly the
// rows a plain ILIKE finds, for every field, including hostile queries: LIKE's wildcards and escape, quotes,
// one or two characters, accents and combining marks, upper case.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import { buildStaffCast, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { rarestWindows, trigramFrequencies, trigramWindows } from './trigram-search';

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/** The search as it was before the probes: plain ILIKE, field by field (admin-service.ts searchFilter). */
async function plainIds(db: Db, field: string, query: string): Promise<number[]> {
  const pattern = `%${escapeLikePattern(query)}%`;
  const digits = /\p{L}/u.test(query) ? '' : query.replace(/\D/g, '');
  const byPhone = digits ? sql`u.phone like ${`%${digits}%`}` : sql`false`;
  const fullName = sql`(u.name || ' ' || u.last_name)`;
  const where = {
    all: sql`(${fullName} ilike ${pattern} or u.email ilike ${pattern} or ${byPhone})`,
    email: sql`u.email ilike ${pattern}`,
    name: sql`(${fullName} ilike ${pattern} and u.name ilike ${pattern})`,
    last_name: sql`(${fullName} ilike ${pattern} and u.last_name ilike ${pattern})`,
  }[field]!;
  return rowsOf(await db.execute(sql`select u.user_id from users u where ${where} order by u.user_id`)).map((r) => Number(r.user_id));
}

describe('customers search through the rarest trigrams', () => {
  let t: TestApp;
  let admin: BuiltUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin } = await buildStaffCast(t.ctx));
    // Addresses sharing most of their trigrams (as the bench's do), names from a short list.
    await t.ctx.db.execute(sql`insert into users (name, last_name, email, phone)
      select (array['Ana', 'Luis', 'María', 'José', 'Emma'])[1 + g % 5], (array['García', 'López', 'Smith', 'Núñez'])[1 + (g / 5) % 4],
        'customer' || g || '@example' || (g % 7) || '.com', '55' || lpad((g * 7919 % 100000000)::text, 8, '0')
      from generate_series(1, 1500) g`);
    const hostile: [string, string, string][] = [
      ['Zoë', "O'Brien", 'o.brien+100%off@example.com'],
      ['Ana_Maria', 'de la Peña', 'ana_maria@ex_ample.com'],
      ['Back\\slash', 'Quote"d', 'back\\slash@example.com'],
      ['JOSÉ', 'GARCÍA', 'JOSE.GARCIA@EXAMPLE.COM'],
      // A decomposed accent: "e" followed by a combining acute.
      ['Rene\u0301e', 'Garci\u0301a', 'renee@example.com'],
      ['Σοφία', 'Παπαδοπούλου', 'sofia@example.gr'],
      ['İlker', 'Işık', 'ilker@example.tr'],
      ['Customer', 'Fortytwo', 'customer42@example.org'],
    ];
    for (const [name, lastName, email] of hostile) await buildUser(t.ctx, { name, lastName, email, phone: null });
    await t.ctx.db.execute(sql`analyze users`);
  });
  afterAll(() => t.close());

  it('has the trigram statistics after ANALYZE, so the probes are used', async () => {
    const windows = trigramWindows('customer4242@');
    expect(windows).toEqual(['cus', 'ust', 'sto', 'tom', 'ome', 'mer', 'er4', 'r42', '424', '242']);
    const found = await trigramFrequencies(t.ctx.db, ['users_email_trgm_stats', 'users_full_name_trgm_stats'], windows);
    const email = found.get('users_email_trgm_stats');
    expect(email).toBeDefined();
    // Every address has "cus": sampled as (nearly) every row; the digits are rare and asked first.
    expect(email!.frequencies.get('cus')).toBeGreaterThan(0.9);
    const probes = rarestWindows(windows, email!);
    expect(probes.length).toBeGreaterThan(0);
    expect(probes).not.toContain('cus');
    expect(found.get('users_full_name_trgm_stats')).toBeDefined();
  });

  it('skips windows that are not three ASCII letters or digits, or stand beside a combining mark', () => {
    expect(trigramWindows('ab')).toEqual([]);
    expect(trigramWindows('García')).toEqual(['Gar', 'arc']);
    expect(trigramWindows('Rene\u0301e')).toEqual(['Ren']);
    expect(trigramWindows('a%b_c\\d')).toEqual([]);
    expect(trigramWindows('AAAaaa')).toEqual(['AAA']);
  });

  it('asks for the rarest windows only when leaving the others out saves reading', () => {
    const stats = (entries: Record<string, number>, floor = 0.004) => ({ floor, frequencies: new Map(Object.entries(entries)) });
    const shared = { cus: 1, ust: 1, sto: 1, tom: 1, ome: 1, mer: 1, er4: 0.11, r42: 0.012, '424': 0.0037, '242': 0.0038 };
    // The rarest first, then those up to 20 times as common; the shared ones are left to the recheck.
    expect(rarestWindows(trigramWindows('customer4242@'), stats(shared))).toEqual(['424', '242', 'r42']);
    // Unsampled windows count as the floor (rarer than any sampled one).
    expect(rarestWindows(trigramWindows('Customer9999'), stats(shared))).toEqual(['er9', 'r99', '999']);
    // A common name's windows are all about as common: nothing to save, the plain ILIKE.
    expect(rarestWindows(trigramWindows('García'), stats({ gar: 0.05, arc: 0.05 }))).toEqual([]);
    // A domain shared by a seventh of the addresses: its one selective window, not the lists every address has.
    expect(rarestWindows(trigramWindows('example3.com'), stats({ exa: 1, xam: 1, amp: 1, mpl: 1, ple: 1, le3: 0.14, com: 1 }))).toEqual(['le3']);
    expect(rarestWindows([], stats(shared))).toEqual([]);
  });

  const queries = [
    'customer4242@', 'CUSTOMER4242@', 'customer42', 'example3.com', '@example', '%', '_', '\\', "'", '"', "O'Brien",
    '100%', '100%off', 'ana_maria', 'ex_ample', 'back\\slash', 'Quote"d', 'a', 'ab', 'gA', 'García', 'GARCÍA', 'garcia',
    'Garci\u0301a', 'Rene\u0301e', 'Renee', 'é', 'Σοφία', 'ΣΟΦΊΑ', 'İlker', 'ilker', 'IŞIK', 'María Núñez', 'josé garcía',
    'customer1', '424', '55', '%off', 'com', ' ana ', 'a b', 'Fortytwo', 'tomer4',
  ];

  it('finds exactly the rows of a plain ILIKE, in every field, for hostile queries', async () => {
    for (const field of ['all', 'email', 'name', 'last_name']) {
      for (const query of queries) {
        // The API trims the query (common/src/admin-users.ts).
        const expected = await plainIds(t.ctx.db, field, query.trim());
        const url = (page: number) => `/api/users/admin/all?query=${encodeURIComponent(query)}&field=${field}&sort=user_id&direction=asc&page=${page}`;
        const first = await t.app.inject({ url: url(1), headers: admin.auth });
        expect(first.statusCode, `${field} ${query}`).toBe(200);
        const body = first.json() as { users: { user_id: number }[]; total: number };
        expect(body.total, `${field} ${JSON.stringify(query)}`).toBe(expected.length);
        expect(body.users.map((u) => u.user_id), `${field} ${JSON.stringify(query)}`).toEqual(expected.slice(0, 50));
        const lastPage = Math.ceil(expected.length / 50);
        if (lastPage > 1) {
          const last = (await t.app.inject({ url: url(lastPage), headers: admin.auth })).json() as { users: { user_id: number }[] };
          expect(last.users.map((u) => u.user_id)).toEqual(expected.slice((lastPage - 1) * 50));
        }
      }
    }
  });

  it('finds the one address among addresses sharing its common trigrams, in a date range too', async () => {
    const [target] = rowsOf(await t.ctx.db.execute(sql`select user_id from users where email = 'customer424@example4.com'`));
    const body = (await t.app.inject({ url: '/api/users/admin/all?query=customer424%40&field=email', headers: admin.auth })).json();
    expect(body.users.map((u: { user_id: number }) => u.user_id)).toEqual([Number(target.user_id)]);
    expect(body.total).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    const ranged = (await t.app.inject({ url: `/api/users/admin/all?query=customer424%40&field=all&start_date=${today}&end_date=${today}`, headers: admin.auth })).json();
    expect(ranged.total).toBe(1);
    const past = (await t.app.inject({ url: '/api/users/admin/all?query=customer424%40&field=all&start_date=2001-01-01&end_date=2001-01-31', headers: admin.auth })).json();
    expect(past.total).toBe(0);
    // Staff only, as before.
    expect((await t.app.inject({ url: '/api/users/admin/all?query=customer424%40&field=email' })).statusCode).toBe(401);
  });
});
