// The embedded database's thread: what drizzle and pg-boss rely on must survive the hop between threads.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_ENV } from '../test/template-env';
import { PgliteThread } from './pglite-thread';

/** In memory, from the run's template (global setup) where there is one: initdb is tested below, once. */
const inMemory = () => PgliteThread.create(null, { loadDataDir: process.env[TEMPLATE_ENV.pglite] });

describe('PGlite in a worker thread', () => {
  let thread: PgliteThread;
  beforeAll(async () => {
    thread = await inMemory();
    await thread.exec('create table notes (id serial primary key, body text not null unique, at timestamptz not null default now())');
  });
  afterAll(() => thread.close());

  it('answers queries with parameters, as objects or arrays', async () => {
    await thread.query('insert into notes (body) values ($1), ($2)', ['first', 'second']);
    const objects = await thread.query('select body from notes order by id', []);
    expect(objects.rows).toEqual([{ body: 'first' }, { body: 'second' }]);
    const arrays = await thread.query('select id, body from notes where body = $1', ['second'], { rowMode: 'array' });
    expect(arrays.rows).toEqual([[2, 'second']]);
    expect(arrays.fields.map((field) => field.name)).toEqual(['id', 'body']);
  });

  it('gives timestamps as dates, or as text when the caller asks for identity parsers (drizzle does)', async () => {
    const parsed = await thread.query('select at from notes limit 1');
    expect((parsed.rows[0] as { at: unknown }).at).toBeInstanceOf(Date);
    const raw = await thread.query('select at from notes limit 1', [], { parsers: { 1184: (value: string) => value } });
    expect(typeof (raw.rows[0] as { at: unknown }).at).toBe('string');
  });

  it("keeps PostgreSQL's error fields (the code and constraint callers branch on)", async () => {
    const err = await thread.query('insert into notes (body) values ($1)', ['first']).catch((caught: unknown) => caught);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', constraint: 'notes_body_key' });
  });

  it('runs a repeated query by one named statement, parsed once (issue 31 item 2)', async () => {
    const text = 'select body from notes where body = $1';
    const prepared = () => thread.query('select count(*)::int as n from pg_prepared_statements where statement = $1', [text]);
    await thread.query(text, ['first']);
    const again = await thread.query(text, ['second']);
    expect(again.rows).toEqual([{ body: 'second' }]);
    expect((await prepared()).rows).toEqual([{ n: 1 }]);
  });

  it('keeps a substring search (LIKE) unnamed, planned for each pattern (a generic plan is blind to how rare it is)', async () => {
    const text = 'select body from notes where lower(body) like $1';
    for (const pattern of ['%sec%', '%fir%']) await thread.query(text, [pattern]);
    expect((await thread.query(text, ['%second%'])).rows).toEqual([{ body: 'second' }]);
    expect((await thread.query('select count(*)::int as n from pg_prepared_statements where statement = $1', [text])).rows).toEqual([{ n: 0 }]);
  });

  it('prepares a statement again once a change to its table made it stale', async () => {
    await thread.exec('create table shapes (id int)');
    await thread.query('insert into shapes values ($1)', [1]);
    expect((await thread.query('select * from shapes where id = $1', [1])).rows).toEqual([{ id: 1 }]);
    await thread.exec('alter table shapes add column name text');
    expect((await thread.query('select * from shapes where id = $1', [1])).rows).toEqual([{ id: 1, name: null }]);
  });

  it('reports a statement that cannot be parsed as PostgreSQL does, and prepares nothing for it', async () => {
    const err = await thread.query('select nope from notes where id = $1', [1]).catch((caught: unknown) => caught);
    expect(err).toMatchObject({ code: '42703' });
    expect((await thread.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 2 }]);
  });

  it('commits a transaction when its function resolves and rolls it back when it throws', async () => {
    await thread.transaction(async (tx) => {
      await tx.query('insert into notes (body) values ($1)', ['kept']);
    });
    await expect(
      thread.transaction(async (tx) => {
        await tx.query('insert into notes (body) values ($1)', ['dropped']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const { rows } = await thread.query('select body from notes where body in ($1, $2)', ['kept', 'dropped']);
    expect(rows).toEqual([{ body: 'kept' }]);
  });

  it('makes other statements wait until an open transaction ends', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = thread.transaction(async (tx) => {
      await tx.query('insert into notes (body) values ($1)', ['inside']);
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = thread.query('select count(*)::int as n from notes where body = $1', ['inside']);
    release();
    await transaction;
    // The read ran after the commit, so it sees the row.
    expect((await outside).rows).toEqual([{ n: 1 }]);
  });

  it('runs several statements at once with exec()', async () => {
    const results = await thread.exec("select 1 as one; select 'two' as two");
    expect(results.map((result) => result.rows)).toEqual([[{ one: 1 }], [{ two: 'two' }]]);
  });
});

describe('PGlite thread lifecycle', () => {
  it('keeps data in its directory across a close and a reopen, and copies it as a template into a new one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pluma-pglite-'));
    const copy = path.join(`${dir}-copy`, 'pglite');
    try {
      const first = await PgliteThread.create(dir);
      await first.exec("create table kept (v text); insert into kept values ('still here')");
      await first.close();
      const second = await PgliteThread.create(dir);
      expect((await second.query('select v from kept')).rows).toEqual([{ v: 'still here' }]);
      await second.close();
      // As a boot on a new DATA_DIR does with the build's template: the thread copies it, then opens the copy.
      const third = await PgliteThread.create(copy, { template: dir });
      await third.exec("insert into kept values ('only in the copy')");
      expect((await third.query('select v from kept order by v')).rows).toEqual([{ v: 'only in the copy' }, { v: 'still here' }]);
      await third.close();
      const original = await PgliteThread.create(dir);
      expect((await original.query('select v from kept')).rows).toEqual([{ v: 'still here' }]);
      await original.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(path.dirname(copy), { recursive: true, force: true });
    }
  });

  it('creates a new database in a short-lived process, then opens it with 16MB of shared buffers', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pluma-pglite-'));
    const dataDir = path.join(dir, 'pglite');
    try {
      const thread = await PgliteThread.create(dataDir);
      expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
      expect((await thread.query('show shared_buffers')).rows).toEqual([{ shared_buffers: '16MB' }]);
      await thread.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says why when the database cannot be created', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pluma-pglite-'));
    try {
      writeFileSync(path.join(dir, 'a-file'), '');
      await expect(PgliteThread.create(path.join(dir, 'a-file', 'pglite'))).rejects.toThrow(/could not be created in .*a-file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses calls once closed instead of hanging', async () => {
    const thread = await inMemory();
    await thread.close();
    await expect(thread.query('select 1')).rejects.toThrow(/database thread stopped/);
  });
});
