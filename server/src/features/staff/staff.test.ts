// Back-office staff through the real app (spec part 1 §2 "Staff page", §7; docs/decisions.md "Staff rights").
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, staff, users } from '../../db/schema';
import { buildStaffCast, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('back-office staff', () => {
  let t: TestApp;
  let admin: BuiltUser;
  let spanishAdmin: BuiltUser;
  let manager: BuiltUser;
  let customer: BuiltUser;
  const call = (as: BuiltUser | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: as?.auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const lastAudit = async (action: string) =>
    (await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.auditId)).limit(1))[0];

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin, spanishAdmin, manager, customer } = await buildStaffCast(t.ctx));
  });
  afterAll(() => t.close());

  it('is an admin\'s only: anonymous 401, customer 403, manager 403 on every call', async () => {
    const target = await buildUser(t.ctx, { staffRole: 'manager' });
    const [row] = await t.ctx.db.select().from(staff).where(eq(staff.userId, target.user.userId));
    const routes: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: unknown; admin: number }[] = [
      { method: 'GET', url: '/api/staff/admin/all', admin: 200 },
      { method: 'POST', url: '/api/staff', payload: { email: (await buildUser(t.ctx)).user.email, role: 'manager' }, admin: 201 },
      { method: 'PUT', url: '/api/staff', payload: { staff_id: row.staffId, role: 'admin' }, admin: 200 },
      { method: 'DELETE', url: `/api/staff/${row.staffId}`, admin: 204 },
    ];
    for (const route of routes) {
      const label = `${route.method} ${route.url}`;
      expect((await call(null, route.method, route.url, route.payload)).statusCode, label).toBe(401);
      expect((await call(customer, route.method, route.url, route.payload)).statusCode, label).toBe(403);
      expect((await call(manager, route.method, route.url, route.payload)).statusCode, label).toBe(403);
      expect((await call(admin, route.method, route.url, route.payload)).statusCode, label).toBe(route.admin);
    }
  });

  it('lists staff with the exact keys, searched by email', async () => {
    const res = await call(admin, 'GET', `/api/staff/admin/all?query=${encodeURIComponent(manager.user.email.toUpperCase())}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(1);
    expect(Object.keys(body.staff[0]).sort()).toEqual(['createdAt', 'role', 'staff_id', 'user']);
    expect(body.staff[0]).toMatchObject({ role: 'manager', user: { user_id: manager.user.userId, email: manager.user.email, name: 'Test', last_name: 'User' } });
    const all = (await call(admin, 'GET', '/api/staff/admin/all')).json();
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect((await call(admin, 'GET', '/api/staff/admin/all?page=0')).statusCode).toBe(400);
  });

  it('adds an existing customer as staff (their rights change at once), audited with the role; twice is 409', async () => {
    const someone = await buildUser(t.ctx);
    expect((await t.app.inject({ url: '/api/users', headers: someone.auth })).json().staff).toBeNull();
    const res = await call(admin, 'POST', '/api/staff', { email: someone.user.email, role: 'manager' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ role: 'manager', user: { user_id: someone.user.userId } });
    expect((await t.app.inject({ url: '/api/users', headers: someone.auth })).json().staff).toMatchObject({ role: 'manager' });
    expect((await t.app.inject({ url: '/api/users/admin/all', headers: someone.auth })).statusCode).toBe(200);
    const audit = await lastAudit('POST /api/staff');
    expect(audit).toMatchObject({ actorUserId: admin.user.userId, targetType: 'user', targetId: String(someone.user.userId) });
    expect(JSON.parse(audit.details!).changes).toEqual({ role: { from: null, to: 'manager' } });

    const twice = await call(spanishAdmin, 'POST', '/api/staff', { email: someone.user.email, role: 'admin' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Este usuario ya es parte del equipo.');
  });

  it('invites an unknown email: an account without password and the reset email as invitation', async () => {
    const email = `invited-${Date.now()}@example.com`;
    const res = await call(admin, 'POST', '/api/staff', { email: ` ${email.toUpperCase()} `, role: 'admin' });
    expect(res.statusCode).toBe(201);
    const [user] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ passwordHash: null, name: email.split('@')[0] });
    const mail = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(mail).toHaveLength(1);
    expect(JSON.parse((await lastAudit('POST /api/staff')).details!).invited).toBe(true);
    const bad = await call(admin, 'POST', '/api/staff', { email: 'not-an-email', role: 'owner' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().details).sort()).toEqual(['email', 'role']);
  });

  it('changes a role (audited from → to) and removes staff; unknown ids are 404', async () => {
    const member = await buildUser(t.ctx, { staffRole: 'manager' });
    const [row] = await t.ctx.db.select().from(staff).where(eq(staff.userId, member.user.userId));
    const res = await call(admin, 'PUT', '/api/staff', { staff_id: row.staffId, role: 'admin' });
    expect(res.json()).toMatchObject({ staff_id: row.staffId, role: 'admin' });
    expect(JSON.parse((await lastAudit('PUT /api/staff')).details!).changes).toEqual({ role: { from: 'manager', to: 'admin' } });
    expect((await call(admin, 'DELETE', `/api/staff/${row.staffId}`)).statusCode).toBe(204);
    expect(JSON.parse((await lastAudit('DELETE /api/staff/:id')).details!).changes).toEqual({ role: { from: 'admin', to: null } });
    // The account stays, as a customer, and loses the back office at once.
    expect((await t.app.inject({ url: '/api/users', headers: member.auth })).json().staff).toBeNull();
    expect((await t.app.inject({ url: '/api/users/admin/all', headers: member.auth })).statusCode).toBe(403);

    expect((await call(admin, 'PUT', '/api/staff', { staff_id: 999_999, role: 'admin' })).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', '/api/staff/999999')).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', '/api/staff/x')).statusCode).toBe(400);
  });

  it('never demotes or removes the last admin (409, translated)', async () => {
    const own = await createTestApp();
    try {
      const only = await buildUser(own.ctx, { staffRole: 'admin', lang: 'es' });
      const [row] = await own.ctx.db.select().from(staff).where(eq(staff.userId, only.user.userId));
      const demote = await own.app.inject({ method: 'PUT', url: '/api/staff', headers: only.auth, payload: { staff_id: row.staffId, role: 'manager' } });
      expect(demote.statusCode).toBe(409);
      expect(demote.json().message).toBe('Siempre debe haber un administrador: agrega otro administrador primero.');
      const remove = await own.app.inject({ method: 'DELETE', url: `/api/staff/${row.staffId}`, headers: { ...only.auth, 'accept-language': 'en' } });
      expect(remove.statusCode).toBe(409);
      expect((await own.ctx.db.select().from(staff).where(eq(staff.userId, only.user.userId)))[0].role).toBe('admin');

      // With a second admin, the first may step down.
      const second = await buildUser(own.ctx, { staffRole: 'admin' });
      expect((await own.app.inject({ method: 'PUT', url: '/api/staff', headers: second.auth, payload: { staff_id: row.staffId, role: 'manager' } })).statusCode).toBe(200);
      const [secondRow] = await own.ctx.db.select().from(staff).where(eq(staff.userId, second.user.userId));
      expect((await own.app.inject({ method: 'DELETE', url: `/api/staff/${secondRow.staffId}`, headers: second.auth })).statusCode).toBe(409);
    } finally {
      await own.close();
    }
  });
});
