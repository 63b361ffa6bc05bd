// The lists' substring search (contains-text.ts) and deep-page jump (page-cursor.ts jumpIds), issue 31 item 1:
// what they match, and that the plans they were written for are open to the planner (the indexes of
// migration 0041 serve the lowered search and an organization's resources by name; a jump fetches its
// page's ids as one array).
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { containsText, loweredContainsText } from './contains-text';
import { jumpIds, type PageOrder } from './page-cursor';
import { avatars, campaigns, conversations, documents, templates } from './schema';

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

describe('containsText and jumpIds', () => {
  let t: TestApp;
  let owner: BuiltUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await buildUser(t.ctx);
    const names = ['Árbol de NAVIDAD', 'arbol viejo', '100% done', '100 percent', 'snake_case', 'snakeXcase'];
    await t.ctx.db.insert(documents).values(names.map((name) => ({ userId: owner.user.userId, name, content: '', plainText: '' })));
    // Other rows, vacuumed and analyzed as autovacuum would: with the trigram index's pending entries unmerged
    // the planner priced it above reading a whole btree on the name (documents_org_name_lower_idx).
    await t.ctx.db.insert(documents).values(Array.from({ length: 300 }, (_, i) => ({ userId: owner.user.userId, name: `Filler ${i} quarterly`, content: '', plainText: '' })));
    await t.ctx.db.execute(sql`vacuum analyze documents`);
  });
  afterAll(() => t.close());

  const namesWhere = async (text: string) =>
    (await t.ctx.db.select({ name: documents.name }).from(documents).where(and(eq(documents.userId, owner.user.userId), containsText(documents.name, text))).orderBy(documents.name)).map((r) => r.name);

  it('matches a part of the text ignoring case, accents kept, % and _ as themselves', async () => {
    expect(await namesWhere('árbol')).toEqual(['Árbol de NAVIDAD']);
    expect(await namesWhere('ARBOL')).toEqual(['arbol viejo']);
    expect(await namesWhere('navidad')).toEqual(['Árbol de NAVIDAD']);
    expect(await namesWhere('100%')).toEqual(['100% done']);
    expect(await namesWhere('e_c')).toEqual(['snake_case']);
    expect(await namesWhere('zebra')).toEqual([]);
  });

  /**
   * The plan of `query` with sequential scans priced out (and with `ordered`, sorts and bitmap scans too): what
   * the indexes can serve, as on a big table (these tables hold a few rows).
   */
  async function planOf(query: SQL, ordered = false): Promise<string> {
    return t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      if (ordered) {
        await tx.execute(sql`set local enable_sort = off`);
        await tx.execute(sql`set local enable_bitmapscan = off`);
      }
      return rowsOf(await tx.execute(sql`explain (costs off) ${query}`))
        .map((r) => String(Object.values(r)[0]))
        .join('\n');
    });
  }

  const searched: Array<[string, PgTable, SQL]> = [
    // Conversations keep their search keys lowered in stored columns (migration 0042).
    ['conversations_name_lower_trgm_idx', conversations, loweredContainsText(conversations.nameLower, 'Zebra')],
    ['conversations_tags_lower_trgm_idx', conversations, loweredContainsText(conversations.tagsLower, 'Zebra')],
    ['conversations_tag_list_idx', conversations, sql`${conversations.tagList} && array['zebra']::text[]`],
    ['documents_name_lower_trgm_idx', documents, loweredContainsText(documents.nameLower, 'Zebra')],
    ['documents_lower_plain_text_trgm_idx', documents, containsText(documents.plainText, 'zebra')],
    ['avatars_lower_name_trgm_idx', avatars, containsText(avatars.name, 'zebra')],
    ['avatars_lower_description_trgm_idx', avatars, containsText(avatars.description, 'zebra')],
    ['campaigns_lower_name_trgm_idx', campaigns, containsText(campaigns.name, 'zebra')],
    ['templates_lower_name_trgm_idx', templates, containsText(templates.name, 'zebra')],
    ['templates_lower_description_trgm_idx', templates, containsText(templates.description, 'zebra')],
  ];

  it.each(searched)('%s serves the search of its column (a rare word is not a scan of every row)', async (index, table, condition) => {
    expect(await planOf(sql`select 1 from ${table} where ${condition}`)).toContain(index);
  });

  it.each([
    ['documents_org_name_lower_idx', documents, documents.organizationId, sql`${documents.nameLower}`, documents.documentId],
    ['templates_org_lower_name_idx', templates, templates.organizationId, sql`lower(${templates.name})`, templates.templateId],
  ] as Array<[string, PgTable, AnyPgColumn, SQL, AnyPgColumn]>)('%s reads an organization\'s first page by name in order (a campaign\'s resources)', async (index, table, org, nameKey, id) => {
    const plan = await planOf(sql`select ${id} from ${table} where ${org} = 1 order by ${nameKey}, ${id} limit 20`, true);
    expect(plan).toContain(index);
    expect(plan).not.toMatch(/Sort/);
  });

  it('a jump to a deep page fetches the page by primary key, its ids computed once', async () => {
    const order: PageOrder = { key: sql`${documents.createdAt}`, id: documents.documentId, direction: 'desc', type: 'timestamptz', context: [documents.userId, documents.organizationId] };
    const where = and(eq(documents.userId, owner.user.userId), isNull(documents.organizationId));
    const jump = jumpIds(documents, order, where, 2, 2);
    const plan = await planOf(sql`select ${documents.name} from ${documents} where ${and(where, jump)}`);
    // The ids as one array (`= ANY` of the InitPlan's result: $0 on PostgreSQL 16, (InitPlan 1).col1 on 17),
    // checked on the rows an index gives, not a join with every row of the user.
    expect(plan).toMatch(/document_id = ANY \((\$\d|\(InitPlan)/);
    expect(plan).not.toMatch(/Join/);
    const page = await t.ctx.db.select({ id: documents.documentId }).from(documents).where(and(where, jump));
    const skipped = await t.ctx.db
      .select({ id: documents.documentId })
      .from(documents)
      .where(where)
      .orderBy(sql`${documents.createdAt} desc`, sql`${documents.documentId} desc`)
      .limit(2)
      .offset(2);
    expect(page.map((r) => r.id).sort()).toEqual(skipped.map((r) => r.id).sort());
  });
});
