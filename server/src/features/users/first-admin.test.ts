import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { staff, users } from '../../db/schema';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { DEFAULT_ADMIN_EMAIL, seedFirstAdmin } from './first-admin';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const login = (app: TestApp, email: string, password: string) =>
  app.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

describe('first admin', () => {
  it('creates admin@pluma.local with a random 16-character password printed once; idempotent', async () => {
    t = await createTestApp();
    const printed: string[] = [];
    const result = await seedFirstAdmin({ ctx: t.ctx, print: (text) => printed.push(text) });
    expect(result).toMatchObject({ created: true, email: DEFAULT_ADMIN_EMAIL, generatedPassword: true });
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain(DEFAULT_ADMIN_EMAIL);
    const password = printed[0].match(/password: (\S{16}) /)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);

    const res = await login(t, DEFAULT_ADMIN_EMAIL, password!);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.staff.role).toBe('admin');

    const again = await seedFirstAdmin({ ctx: t.ctx, print: (text) => printed.push(text) });
    expect(again).toEqual({ created: false, reason: 'admin_exists' });
    expect(printed).toHaveLength(1);
    expect(await t.ctx.db.select().from(staff).where(eq(staff.role, 'admin'))).toHaveLength(1);
  });

  it('uses ADMIN_EMAIL and ADMIN_PASSWORD and never prints the given password', async () => {
    t = await createTestApp({ ADMIN_EMAIL: 'Owner@Example.com', ADMIN_PASSWORD: 'given-secret-9' });
    const printed: string[] = [];
    const result = await seedFirstAdmin({ ctx: t.ctx, print: (text) => printed.push(text) });
    expect(result).toMatchObject({ created: true, email: 'owner@example.com', generatedPassword: false });
    expect(printed.join('\n')).not.toContain('given-secret-9');
    expect((await login(t, 'owner@example.com', 'given-secret-9')).statusCode).toBe(200);
  });

  it('promotes an existing account named by ADMIN_EMAIL, replacing its password and ending its sessions', async () => {
    t = await createTestApp({ ADMIN_EMAIL: 'taken@example.com' });
    const squatter = await buildUser(t.ctx, { email: 'taken@example.com' });
    const printed: string[] = [];
    const result = await seedFirstAdmin({ ctx: t.ctx, print: (text) => printed.push(text) });
    expect(result).toMatchObject({ created: true, userId: squatter.user.userId, promotedExistingUser: true, generatedPassword: true });
    expect((await t.app.inject({ url: '/api/users', headers: squatter.auth })).statusCode).toBe(401);
    expect((await login(t, 'taken@example.com', squatter.password)).statusCode).toBe(401);
    const password = printed[0].match(/password: (\S{16}) /)![1];
    expect((await login(t, 'taken@example.com', password)).statusCode).toBe(200);
  });

  it('does nothing when an admin exists, and a first signup never becomes admin', async () => {
    t = await createTestApp();
    const existing = await buildUser(t.ctx, { staffRole: 'admin' });
    const printed: string[] = [];
    expect(await seedFirstAdmin({ ctx: t.ctx, print: (text) => printed.push(text) })).toEqual({ created: false, reason: 'admin_exists' });
    expect(printed).toEqual([]);
    expect(await t.ctx.db.select().from(users).where(eq(users.email, DEFAULT_ADMIN_EMAIL))).toHaveLength(0);
    await t.ctx.db.delete(staff).where(eq(staff.userId, existing.user.userId));

    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { name: 'First', last_name: 'User', email: 'first@example.com', password: 'secret-1', phone: '5551234567' },
    });
    expect(signup.statusCode).toBe(201);
    expect(signup.json().user.staff).toBeNull();
  });

  it('two nodes booting at once create exactly one admin', async () => {
    t = await createTestApp();
    const results = await Promise.all([seedFirstAdmin({ ctx: t.ctx, print: () => {} }), seedFirstAdmin({ ctx: t.ctx, print: () => {} })]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await t.ctx.db.select().from(staff).where(eq(staff.role, 'admin'))).toHaveLength(1);
  });
});
