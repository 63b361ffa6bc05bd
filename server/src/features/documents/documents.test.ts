// Documents through the real app and database (spec part 2 §2 "Documents and editor", §3 "Document", §5
// "Document save", §7 "Documents", §9; issue 15 item 1): another user's document is a 404 on every route,
// organization scope, hostile HTML and URLs stripped, the 65000-character rule in EN/ES with nothing changed,
// search, the four sorts and paging, and the Word export read back.
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';

const heading = (text: string, level = 1) => ({ type: 'heading', props: { level }, content: [{ type: 'text', text, styles: {} }], children: [] });
const paragraph = (text: string, styles: Record<string, boolean> = {}) => ({ type: 'paragraph', props: {}, content: [{ type: 'text', text, styles }], children: [] });

describe(`documents API (${testDbKind()})`, () => {
  let t: TestApp;
  let ana: BuiltUser;
  let ben: BuiltUser; // Spanish
  let noAccess: BuiltUser;
  let organizationId: number;

  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const call = (who: BuiltUser | null, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) });
  const create = async (who: BuiltUser, body: object = {}, query = '') => {
    const res = await call(who, 'POST', `/api/documents${query}`, { name: 'Plan', blocks: [heading('Start writing here!')], content: '<h1>Start writing here!</h1>', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp();
    ana = await buildUser(t.ctx, { name: 'Ana', access: true });
    ben = await buildUser(t.ctx, { name: 'Ben', access: true, lang: 'es' });
    noAccess = await buildUser(t.ctx);
    organizationId = (await buildOrganization(t.ctx, [{ user: ana, role: 'admin' }, { user: ben, role: 'member' }])).organizationId;
  });
  afterAll(async () => t?.close());

  it('creates, reads, updates and deletes a document with the spec fields', async () => {
    const created = await create(ana, { tags: ['work', 'Work', 'draft'] });
    expect(created).toMatchObject({ name: 'Plan', organization_id: null, user_id: ana.user.userId, tags: ['Work', 'draft'], content: '<h1>Start writing here!</h1>' });
    expect(created.abilities).toEqual({ edit: true, delete: true, export: true });
    expect(created.blocks[0]).toMatchObject({ type: 'heading', content: [{ text: 'Start writing here!' }] });

    const blocks = [heading('Plan'), paragraph('Hello world', { bold: true })];
    const saved = await call(ana, 'PUT', '/api/documents', { document_id: created.document_id, name: ' Plan B ', blocks, content: '<h1>Plan</h1><p><strong>Hello world</strong></p>' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ name: 'Plan B', content: '<h1>Plan</h1><p><strong>Hello world</strong></p>', characters: 'Plan\nHello world'.length });

    const read = (await call(ana, 'GET', `/api/documents/${created.document_id}`)).json();
    expect(read.blocks).toHaveLength(2);
    expect(read.name).toBe('Plan B');

    // A rename alone keeps the blocks; blocks without their HTML are refused.
    expect((await call(ana, 'PUT', '/api/documents', { document_id: created.document_id, name: 'Plan C' })).json().blocks).toHaveLength(2);
    expect((await call(ana, 'PUT', '/api/documents', { document_id: created.document_id, blocks })).statusCode).toBe(400);
    // The form value cannot be empty (spec part 2 §5).
    const empty = await call(ana, 'PUT', '/api/documents', { document_id: created.document_id, name: '  ' });
    expect(empty.statusCode).toBe(400);

    expect((await call(ana, 'DELETE', `/api/documents/${created.document_id}`)).json()).toEqual({ deleted: true });
    expect((await call(ana, 'GET', `/api/documents/${created.document_id}`)).statusCode).toBe(404);
  });

  it("answers 404 for another user's document on every route and changes nothing", async () => {
    const mine = await create(ana, { name: 'Secret' });
    const id = mine.document_id;
    for (const [method, url, body] of [
      ['GET', `/api/documents/${id}`],
      ['GET', `/api/documents/doc-converted/${id}`],
      ['PUT', '/api/documents', { document_id: id, name: 'Stolen' }],
      ['DELETE', `/api/documents/${id}`],
    ] as [Method, string, object?][]) {
      const res = await call(ben, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(ben, 'GET', '/api/documents?query=Secret')).json().documents).toEqual([]);
    expect((await call(ana, 'GET', `/api/documents/${id}`)).json().name).toBe('Secret');
    // Without access: 412, like the other paid areas.
    expect((await call(noAccess, 'GET', '/api/documents')).statusCode).toBe(412);
    expect((await call(null, 'GET', '/api/documents')).statusCode).toBe(401);
  });

  it('keeps organization documents to their author in that organization, apart from Personal', async () => {
    const org = `?organization_id=${organizationId}`;
    const inOrg = await create(ana, { name: 'Org doc', organization_id: organizationId }, org);
    expect(inOrg.organization_id).toBe(organizationId);
    const personalIds = (await call(ana, 'GET', '/api/documents')).json().documents.map((d: { document_id: number }) => d.document_id);
    expect(personalIds).not.toContain(inOrg.document_id);
    expect((await call(ana, 'GET', `/api/documents/${inOrg.document_id}`)).statusCode).toBe(404);
    expect((await call(ana, 'GET', `/api/documents/${inOrg.document_id}${org}`)).statusCode).toBe(200);
    // Another member of the organization does not see it (only through campaigns, issue 15 item 2).
    expect((await call(ben, 'GET', `/api/documents/${inOrg.document_id}${org}`)).statusCode).toBe(404);
    expect((await call(ben, 'GET', `/api/documents${org}`)).json().documents).toEqual([]);
    // A non-member naming the organization: 404.
    expect((await call(noAccess, 'GET', `/api/documents${org}`)).statusCode).toBe(404);
  });

  it('strips hostile HTML and unsafe URLs on the server, whatever the browser sent', async () => {
    const html =
      '<h1 onclick="x()">Title</h1><script>alert(1)</script><p>ok<img src="x" onerror="alert(2)"><a href="javascript:alert(3)">bad</a>' +
      '<a href="https://example.com/a">good</a><iframe src="https://evil.example"></iframe><input type="text" value="x"><input type="checkbox" checked></p>';
    const blocks = [
      { type: 'paragraph', content: [{ type: 'link', href: 'javascript:alert(1)', content: [{ type: 'text', text: 'click', styles: {} }] }, { type: 'link', href: 'https://example.com', content: [{ type: 'text', text: 'site', styles: {} }] }] },
      { type: 'image', props: { url: 'javascript:alert(1)', caption: 'pic' } },
      { type: 'image', props: { url: 'data:text/html;base64,PHNjcmlwdD4=', caption: 'pic2' } },
      { type: 'image', props: { url: 'https://example.com/a.png', caption: 'pic3' } },
    ];
    const doc = await create(ana, { name: 'Hostile', content: html, blocks });
    expect(doc.content).not.toMatch(/script|onerror|onclick|javascript:|iframe|type="text"/i);
    expect(doc.content).toContain('<h1>Title</h1>');
    expect(doc.content).toContain('<a href="https://example.com/a" rel="noopener noreferrer nofollow" target="_blank">good</a>');
    expect(doc.content).toContain('<input type="checkbox" checked />');
    expect(doc.blocks[0].content).toEqual([
      { type: 'text', text: 'click', styles: {} },
      { type: 'link', href: 'https://example.com', content: [{ type: 'text', text: 'site', styles: {} }] },
    ]);
    expect(doc.blocks.slice(1).map((b: { props: { url: string } }) => b.props.url)).toEqual(['', '', 'https://example.com/a.png']);
  });

  it("refuses content of 65000 characters or more with the spec's message (EN and ES) and changes nothing", async () => {
    const doc = await create(ana, { name: 'Long' });
    const tooLong = `<p>${'a'.repeat(65_000)}</p>`;
    const en = await call(ana, 'PUT', '/api/documents', { document_id: doc.document_id, blocks: [paragraph('a'.repeat(65_000))], content: tooLong });
    expect(en.statusCode).toBe(400);
    expect(en.json().message).toBe('The file length is too large, please remove text to save');
    expect((await call(ana, 'GET', `/api/documents/${doc.document_id}`)).json().content).toBe('<h1>Start writing here!</h1>');

    const es = await call(ben, 'POST', '/api/documents', { name: 'Largo', blocks: [], content: tooLong });
    expect(es.statusCode).toBe(400);
    expect(es.json().message).toBe('El archivo es demasiado largo, elimina texto para poder guardarlo');
    expect((await call(ben, 'GET', '/api/documents?query=Largo')).json().total).toBe(0);
    // Sent far beyond the limit: the same message from the schema.
    const huge = await call(ana, 'PUT', '/api/documents', { document_id: doc.document_id, blocks: [], content: 'a'.repeat(1_000_001) });
    expect(huge.json().message).toBe('The file length is too large, please remove text to save');
    // Just under the limit is saved.
    const under = `<p>${'b'.repeat(64_990)}</p>`;
    expect(under.length).toBeLessThan(65_000);
    expect((await call(ana, 'PUT', '/api/documents', { document_id: doc.document_id, blocks: [paragraph('b'.repeat(64_990))], content: under })).statusCode).toBe(200);
  });

  it('lists with search (name and text), the four sorts and pages of 24', async () => {
    const user = await buildUser(t.ctx, { access: true });
    for (const name of ['banana', 'Apple', 'cherry']) {
      await create(user, { name, blocks: [paragraph(`about ${name} pie`)], content: `<p>about ${name} pie</p>` });
    }
    const names = async (query: string) => (await call(user, 'GET', `/api/documents?${query}`)).json().documents.map((d: { name: string }) => d.name);
    expect(await names('sortBy=name_asc')).toEqual(['Apple', 'banana', 'cherry']);
    expect(await names('sortBy=name_desc')).toEqual(['cherry', 'banana', 'Apple']);
    expect(await names('sortBy=createdAt_desc')).toEqual(['cherry', 'Apple', 'banana']);
    const first = (await call(user, 'GET', '/api/documents?sortBy=name_asc')).json().documents[0];
    await call(user, 'PUT', '/api/documents', { document_id: first.document_id, name: 'Apple' });
    expect((await names('sortBy=updatedAt_desc'))[0]).toBe('Apple');
    expect(await names('query=BANANA PIE')).toEqual(['banana']);
    expect(await names('query=cher')).toEqual(['cherry']);
    expect(await names('query=%25')).toEqual([]);
    const summary = (await call(user, 'GET', '/api/documents?query=cherry')).json().documents[0];
    expect(summary).toMatchObject({ excerpt: 'about cherry pie', characters: 16 });
    expect(summary).not.toHaveProperty('blocks');

    for (let i = 0; i < 24; i += 1) await create(user, { name: `n${String(i).padStart(2, '0')}` });
    const page2 = (await call(user, 'GET', '/api/documents?sortBy=name_asc&page=2')).json();
    expect(page2).toMatchObject({ total: 27, page: 2, pageSize: 24 });
    expect(page2.documents).toHaveLength(3);
    expect((await call(user, 'GET', '/api/documents?sortBy=bogus')).statusCode).toBe(400);

    // Deep pages (server/src/db/page-cursor.ts): page 2 read from page 1's next_cursor is page 2 by number, with
    // equal keys across the boundary (four "n20"); a cursor that is not this list's previous page — forged, for
    // another page, another user's — is ignored and the page read by its number, never showing anyone else's.
    for (let i = 0; i < 3; i += 1) await create(user, { name: 'n20' });
    type Page = { documents: { document_id: number }[]; total: number; total_capped: boolean; next_cursor: string | null };
    const page = async (who: BuiltUser, query: string) => (await call(who, 'GET', `/api/documents?${query}`)).json() as Page;
    const ids = (p: Page) => p.documents.map((d) => d.document_id);
    for (const sortBy of ['name_asc', 'name_desc', 'createdAt_desc', 'updatedAt_desc']) {
      const first = await page(user, `sortBy=${sortBy}`);
      expect(first.documents, sortBy).toHaveLength(24);
      expect(first.next_cursor, sortBy).toEqual(expect.any(String));
      const byNumber = await page(user, `sortBy=${sortBy}&page=2`);
      const byCursor = await page(user, `sortBy=${sortBy}&page=2&cursor=${encodeURIComponent(first.next_cursor!)}`);
      expect(ids(byCursor), sortBy).toEqual(ids(byNumber));
      expect(ids(byCursor), sortBy).toHaveLength(6);
      expect(new Set([...ids(first), ...ids(byCursor)]).size, sortBy).toBe(30);
      expect([byCursor.total, byCursor.total_capped, byCursor.next_cursor], sortBy).toEqual([30, false, null]);
    }
    const cursor = encodeURIComponent((await page(user, 'sortBy=name_asc')).next_cursor!);
    expect(ids(await page(user, 'sortBy=name_asc&page=3&cursor=' + cursor))).toEqual([]);
    expect(ids(await page(user, 'sortBy=name_desc&page=2&cursor=' + cursor))).toEqual(ids(await page(user, 'sortBy=name_desc&page=2')));
    expect(ids(await page(user, 'sortBy=name_asc&page=2&cursor=bm90LWEtY3Vyc29y'))).toEqual(ids(await page(user, 'sortBy=name_asc&page=2')));
    const stranger = await buildUser(t.ctx, { access: true });
    await create(stranger, { name: 'mine' });
    expect(await page(stranger, 'sortBy=name_asc&page=2&cursor=' + cursor)).toMatchObject({ documents: [], total: 1, next_cursor: null });
    expect((await call(user, 'GET', '/api/documents?page=2&cursor=' + 'x'.repeat(501))).statusCode).toBe(400);
  });

  it('caps the total at 1,000 (100 when searching), exact on the last page, jumping or walking there', async () => {
    const user = await buildUser(t.ctx, { access: true });
    await t.ctx.db.insert(documents).values(Array.from({ length: 1030 }, (_, i) => ({ userId: user.user.userId, name: `Bulk ${String(i).padStart(4, '0')}` })));
    const list = async (query: string) => (await call(user, 'GET', `/api/documents?sortBy=name_asc&${query}`)).json();
    const first = await list('');
    expect([first.total, first.total_capped]).toEqual([1000, true]);
    expect(await list('query=bulk')).toMatchObject({ total: 100, total_capped: true });
    const second = await list(`page=2&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(second.documents[0].name).toBe('Bulk 0024');
    expect([second.total, second.total_capped]).toEqual([1024, true]);
    // A jump to the last page: read by its ids, and its total exact.
    const last = await list('page=43');
    expect(last.documents.map((d: { name: string }) => d.name)).toEqual(Array.from({ length: 22 }, (_, i) => `Bulk ${1008 + i}`));
    expect([last.total, last.total_capped, last.next_cursor]).toEqual([1030, false, null]);
    const before = await list('page=42');
    expect((await list(`page=43&cursor=${encodeURIComponent(before.next_cursor)}`)).documents).toEqual(last.documents);
  });

  it('exports the blocks as a Word file that reads back with the text, lists, table, code and links', async () => {
    const blocks = [
      heading('Quarterly report'),
      heading('Summary', 2),
      { type: 'paragraph', content: [
        { type: 'text', text: 'Bold words ', styles: { bold: true } },
        { type: 'text', text: 'italic ', styles: { italic: true } },
        { type: 'text', text: 'struck', styles: { strike: true } },
        { type: 'link', href: 'https://example.com/x', content: [{ type: 'text', text: 'a link', styles: {} }] },
      ], children: [] },
      { type: 'bulletListItem', content: [{ type: 'text', text: 'first bullet', styles: {} }], children: [{ type: 'bulletListItem', content: [{ type: 'text', text: 'nested bullet', styles: {} }], children: [] }] },
      { type: 'numberedListItem', content: [{ type: 'text', text: 'step one', styles: {} }], children: [] },
      { type: 'checkListItem', props: { checked: true }, content: [{ type: 'text', text: 'done item', styles: {} }], children: [] },
      { type: 'table', content: { type: 'tableContent', rows: [{ cells: [[{ type: 'text', text: 'cell A1', styles: {} }], { type: 'tableCell', content: [{ type: 'text', text: 'cell B1', styles: {} }] }] }] } },
      { type: 'codeBlock', props: { language: 'js' }, content: [{ type: 'text', text: 'const x = 1;\nx + 1', styles: {} }] },
      { type: 'quote', content: [{ type: 'text', text: 'a quote', styles: {} }] },
      { type: 'image', props: { url: 'https://example.com/i.png', caption: 'the picture' } },
    ];
    const doc = await create(ana, { name: 'Report: Q1', blocks, content: '<h1>Quarterly report</h1>' });
    const res = await call(ana, 'GET', `/api/documents/doc-converted/${doc.document_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(res.headers['content-disposition']).toContain('Report  Q1.docx');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const xml = strFromU8(files['word/document.xml']);
    for (const text of ['Quarterly report', 'Summary', 'Bold words', 'a link', 'first bullet', 'nested bullet', 'step one', '☒ ', 'done item', 'cell A1', 'cell B1', 'const x = 1;', 'x + 1', 'a quote', 'the picture']) {
      expect(xml, text).toContain(text);
    }
    expect(xml).toContain('w:pStyle w:val="Heading1"');
    expect(xml).toContain('w:pStyle w:val="Heading2"');
    expect(xml).toContain('<w:tbl>');
    expect(xml).toContain('<w:b/>');
    expect(xml).toContain('<w:numPr>');
    expect(strFromU8(files['word/_rels/document.xml.rels'])).toContain('https://example.com/x');
  });
});
