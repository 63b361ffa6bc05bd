// Database refusals caused by the request's values are 400/409 with translated messages, never a 500.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, purchases, users } from '../../db/schema';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { clientErrorFromDatabase } from './database-errors';

describe('database errors caused by bad input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The error the database (PGlite in its thread, or PostgreSQL through node-postgres) throws for `run`. */
  const thrown = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (err) {
      return err;
    }
    throw new Error('expected the database to refuse');
  };

  it.each([
    ['an id past integer', () => t.ctx.db.execute(sql`select ${'2147483648'}::int4`), 400, 'number_out_of_range'],
    ['text for an integer', () => t.ctx.db.execute(sql`select ${'abc'}::int4`), 400, 'validation_error'],
    ['year 0', () => t.ctx.db.execute(sql`select ${'0000-01-01'}::date`), 400, 'invalid_date'],
    ['a year past 294276', () => t.ctx.db.execute(sql`select ${'300000-01-01'}::timestamptz`), 400, 'invalid_date'],
    ['NUL in text', () => t.ctx.db.execute(sql`select ${'a\u0000b'}::text`), 400, 'text_control_characters'],
  ])('%s (seen through drizzle and the driver)', async (_label, run, status, messageKey) => {
    expect(clientErrorFromDatabase(await thrown(run))).toMatchObject({ status, messageKey });
  });

  it('a reference to no record names its field; a duplicate is a conflict', async () => {
    const { user } = await buildUser(t.ctx);
    const [product] = await t.ctx.db.insert(products).values({ name: 'P', price: 1 }).returning();
    const fk = await thrown(() =>
      t.ctx.db.insert(purchases).values({ userId: user.userId, productId: product.productId, status: 'active', paymentMethodId: 2_147_483_647 }),
    );
    expect(clientErrorFromDatabase(fk)).toEqual({
      status: 400,
      errorId: 'validation_error',
      messageKey: 'reference_not_found',
      params: { field: 'payment_method_id' },
      details: { payment_method_id: 'reference_not_found' },
    });
    const duplicate = await thrown(() => t.ctx.db.insert(users).values({ name: 'A', lastName: 'B', email: user.email.toUpperCase(), passwordHash: 'x' }));
    expect(clientErrorFromDatabase(duplicate)).toMatchObject({ status: 409, errorId: 'conflict', messageKey: 'record_exists' });
  });

  it('anything else stays a server error', () => {
    expect(clientErrorFromDatabase(new Error('connection terminated'))).toBeNull();
    expect(clientErrorFromDatabase(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBeNull();
    // A real failure on our side (e.g. a missing table) is not the client's fault.
    expect(clientErrorFromDatabase(Object.assign(new Error('relation does not exist'), { code: '42P01' }))).toBeNull();
  });

  it('POST /api/users/giveAccess with an unknown payment method: 400 naming the field, in Spanish, nothing stored', async () => {
    const admin = await buildUser(t.ctx, { staffRole: 'admin', lang: 'es' });
    const customer = await buildUser(t.ctx);
    const [product] = await t.ctx.db.insert(products).values({ name: 'Plan', price: 10, wordAmount: 100, expirationDays: 30 }).returning();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/giveAccess',
      headers: admin.auth,
      payload: { user_id: customer.user.userId, product_id: product.productId, payment_method_id: 2_147_483_647 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'validation_error',
      message: 'El registro indicado en payment_method_id no existe.',
      details: { payment_method_id: 'El registro indicado en payment_method_id no existe.' },
    });
    expect(await t.ctx.db.select().from(purchases).where(eq(purchases.userId, customer.user.userId))).toEqual([]);
  });

  it('schema refusals are worded by kind in the user language: ids, control characters, dates, lengths', async () => {
    const { auth } = await buildUser(t.ctx, { lang: 'es' });
    const put = (payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: '/api/users', headers: auth, payload });
    expect((await put({ file_id: 2_147_483_648 })).json()).toMatchObject({ details: { file_id: 'Este identificador no es válido.' } });
    expect((await put({ company: 'ACME\u0000' })).json()).toMatchObject({ details: { company: 'El texto no puede contener caracteres de control.' } });
    expect((await put({ birthday: '0000-01-01' })).json()).toMatchObject({ details: { birthday: 'Esta fecha no es válida.' } });
    expect((await put({ company: 'x'.repeat(201) })).json()).toMatchObject({ details: { company: 'Demasiado largo: como máximo 200 caracteres.' } });
    const english = await t.app.inject({ url: '/api/conversations/conversation/2147483648', headers: (await buildUser(t.ctx)).auth });
    expect(english.statusCode).toBe(400);
    expect(english.json()).toMatchObject({ error: 'validation_error', details: { id: 'This id is not valid.' } });
  });
});
