// Single sign-on through the real app against a real OpenID provider (oidc-provider on 127.0.0.1, allowed by
// OUTBOUND_ALLOW_HOSTS as an operator would allow a local issuer): the whole redirect dance, the refusals
// (replayed callback, state mismatch, another browser, wrong nonce, tampered PKCE, unverified email linking,
// unknown provider, non-staff configuring), two-factor after SSO, and an organization requiring SSO — which
// closes every other way in (reset, passkey, another provider's linked identity) but to staff (break-glass).
import { and, count, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, organizations, ssoIdentities, userOrganizations, users } from '../../../db/schema';
import { createResetPasswordToken } from '../../../platform/auth/one-time-tokens';
import { buildOrganization, buildUser, type BuiltUser } from '../../../test/factories';
import { startTestIssuer, type TestIssuer } from '../../../test/oidc-issuer';
import { SoftAuthenticator } from '../../../test/soft-authenticator';
import { createTestApp, type TestApp } from '../../../test/test-app';

const PUBLIC_URL = 'http://pluma.test';
const CALLBACK = `${PUBLIC_URL}/api/auth/sso/callback`;

describe('single sign-on (OpenID Connect)', () => {
  let t: TestApp;
  let idp: TestIssuer;
  let admin: BuiltUser;
  let providerId: number;
  let ip = 0;

  beforeAll(async () => {
    idp = await startTestIssuer({ redirectUri: CALLBACK });
    t = await createTestApp({ PUBLIC_URL, OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
    admin = await buildUser(t.ctx, { staffRole: 'admin' });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { token?: string; body?: object; cookie?: string; lang?: string } = {}) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      payload: options.body,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.lang ? { 'accept-language': options.lang } : {}),
      },
      remoteAddress: `10.44.0.${(++ip % 250) + 1}`,
    });

  /** GET start: the provider's URL and the browser cookie. */
  async function start(id = providerId) {
    const response = await call('GET', `/auth/sso/${id}/start`);
    expect(response.statusCode).toBe(302);
    const cookie = String(response.headers['set-cookie']).split(';')[0];
    return { location: new URL(String(response.headers.location)), cookie };
  }
  /** The callback as the browser calls it; returns where the app sends the browser. */
  async function callback(back: URL, cookie: string) {
    expect(back.href.startsWith(CALLBACK)).toBe(true);
    const response = await call('GET', `/auth/sso/callback${back.search}`, { cookie });
    expect(response.statusCode).toBe(302);
    return new URL(String(response.headers.location));
  }
  /** The whole dance as `sub`; the place /login is sent to. */
  async function signInAs(sub: string, tamper?: (url: URL) => void) {
    idp.nextLogin = sub;
    const { location, cookie } = await start();
    tamper?.(location);
    return callback(await idp.signIn(location.href), cookie);
  }
  const codeOf = (landing: URL) => new URLSearchParams(landing.hash.slice(1)).get('sso_code') ?? '';
  const errorOf = (landing: URL) => landing.searchParams.get('sso_error');

  it('staff admins configure providers (secret masked, audited); others cannot; visitors see the enabled ones', async () => {
    const input = { name: 'Local IdP', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret };
    expect((await call('POST', '/auth/sso/admin/providers', { body: input })).statusCode).toBe(401);
    const customer = await buildUser(t.ctx);
    expect((await call('POST', '/auth/sso/admin/providers', { token: customer.token, body: input })).statusCode).toBe(403);
    expect((await call('GET', '/auth/sso/admin/providers', { token: customer.token })).statusCode).toBe(403);
    // An issuer that serves no OpenID configuration is refused before it is saved.
    const bad = await call('POST', '/auth/sso/admin/providers', { token: admin.token, body: { ...input, issuer: `${idp.issuer}/nothing-here` } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('sso_discovery_failed');
    // A private address that is not allowed is refused by the outbound guard.
    const privateIssuer = await call('POST', '/auth/sso/admin/providers', { token: admin.token, body: { ...input, issuer: 'https://10.0.0.1/' } });
    expect(privateIssuer.statusCode).toBe(400);

    const created = await call('POST', '/auth/sso/admin/providers', { token: admin.token, body: input });
    expect(created.statusCode).toBe(201);
    const provider = created.json();
    providerId = provider.provider_id;
    expect(provider).toMatchObject({ name: 'Local IdP', client_id: idp.clientId, enabled: true, redirect_uri: CALLBACK });
    expect(provider.client_secret).toBe(`••••••••${idp.clientSecret.slice(-4)}`);
    // Saved with the masked secret: the secret stays (the flow below still authenticates the client).
    const saved = await call('PUT', `/auth/sso/admin/providers/${providerId}`, { token: admin.token, body: { ...input, client_secret: provider.client_secret, name: 'Local' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ name: 'Local', client_secret: provider.client_secret });
    const audits = await t.ctx.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'sso_provider'), eq(auditLog.targetId, String(providerId))));
    expect(audits.map((a) => a.action)).toEqual(['POST /api/auth/sso/admin/providers', 'PUT /api/auth/sso/admin/providers/:id']);
    expect(JSON.stringify(audits)).not.toContain(idp.clientSecret);

    // A disabled provider is neither listed nor startable; an unknown id is a 404.
    const other = await call('POST', '/auth/sso/admin/providers', { token: admin.token, body: { ...input, name: 'Off', enabled: false } });
    const list = (await call('GET', '/auth/sso/providers')).json();
    expect(list.providers).toEqual([{ provider_id: providerId, name: 'Local' }]);
    expect(JSON.stringify(list)).not.toContain('secret');
    expect((await call('GET', `/auth/sso/${other.json().provider_id}/start`)).statusCode).toBe(404);
    expect((await call('GET', '/auth/sso/999999/start')).statusCode).toBe(404);
    expect((await call('DELETE', `/auth/sso/admin/providers/${other.json().provider_id}`, { token: customer.token })).statusCode).toBe(403);
    expect((await call('DELETE', `/auth/sso/admin/providers/${other.json().provider_id}`, { token: admin.token })).statusCode).toBe(204);
    expect((await call('GET', '/auth/sso/admin/providers', { token: admin.token })).json().providers).toHaveLength(1);
  });

  it('signs a new account in with PKCE (S256), state and nonce; the code is single use; replays and mismatches are refused', async () => {
    idp.accounts.set('new-1', { email: 'nueva@example.org', email_verified: true, given_name: 'Nueva', family_name: 'Persona' });
    idp.nextLogin = 'new-1';
    const { location, cookie } = await start();
    expect(location.origin).toBe(idp.issuer);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    expect(cookie).toMatch(/^pluma_sso=/);
    const back = await idp.signIn(location.href);

    // Another browser (no cookie, or another's) cannot use this answer, and the state is then spent.
    const { cookie: otherBrowser } = await start();
    const landing = await callback(back, cookie);
    expect(['/login', '/auth/login']).toContain(landing.pathname);
    expect(landing.search).toBe('');
    const code = codeOf(landing);
    expect(code.length).toBeGreaterThan(20);
    const session = await call('POST', '/auth/sso/exchange', { body: { code } });
    expect(session.statusCode).toBe(200);
    const me = (await call('GET', '/users', { token: session.json().token })).json();
    expect(me).toMatchObject({ email: 'nueva@example.org', name: 'Nueva', last_name: 'Persona' });
    expect((await call('POST', '/auth/sso/exchange', { body: { code } })).json().error).toBe('sso_code_invalid');

    // Replayed callback: the state was used.
    expect(errorOf(await callback(back, cookie))).toBe('sso_state_invalid');
    // State mismatch: a state nobody issued.
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state-we-sent');
    expect(errorOf(await callback(forged, cookie))).toBe('sso_state_invalid');
    // The right state from another browser.
    const second = await start();
    const secondBack = await idp.signIn(second.location.href);
    expect(errorOf(await callback(secondBack, otherBrowser))).toBe('sso_state_invalid');
    expect(errorOf(await callback(secondBack, second.cookie))).toBe('sso_state_invalid');

    // A nonce other than ours in the ID token, and a PKCE challenge that is not our verifier's.
    expect(errorOf(await signInAs('new-1', (url) => url.searchParams.set('nonce', 'someone-elses-nonce')))).toBe('sso_failed');
    expect(errorOf(await signInAs('new-1', (url) => url.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')))).toBe('sso_failed');

    // The same person again: the (issuer, subject) link, no second account.
    const again = await call('POST', '/auth/sso/exchange', { body: { code: codeOf(await signInAs('new-1')) } });
    expect((await call('GET', '/users', { token: again.json().token })).json().user_id).toBe(me.user_id);
    const created = await t.ctx.db.select().from(auditLog).where(and(eq(auditLog.action, 'sso.account_created'), eq(auditLog.targetId, String(me.user_id))));
    expect(created).toHaveLength(1);
  });

  it('links an existing account only with a verified email, and two-factor still applies', async () => {
    const ana = await buildUser(t.ctx, { email: 'ana.sso@example.com' });
    idp.accounts.set('ana-unverified', { email: 'ana.sso@example.com', email_verified: false, name: 'Ana' });
    expect(errorOf(await signInAs('ana-unverified'))).toBe('sso_email_unverified');
    idp.accounts.set('ana-no-email', { name: 'Ana' });
    expect(errorOf(await signInAs('ana-no-email'))).toBe('sso_email_missing');

    // Ana turns on TOTP; a verified sign-in links her account and asks for the code.
    const setup = (await call('POST', '/auth/two-factor/setup', { token: ana.token })).json();
    const totp = new TOTP({ secret: Secret.fromBase32(setup.secret), digits: 6, period: 30 });
    expect((await call('POST', '/auth/two-factor/confirm', { token: ana.token, body: { code: totp.generate({ timestamp: Date.now() - 30_000 }) } })).statusCode).toBe(200);
    idp.accounts.set('ana-verified', { email: 'ana.sso@example.com', email_verified: true, name: 'Ana Other' });
    const step = (await call('POST', '/auth/sso/exchange', { body: { code: codeOf(await signInAs('ana-verified')) } })).json();
    expect(step).toMatchObject({ two_factor_required: true });
    expect(step.token).toBeUndefined();
    const done = await call('POST', '/auth/two-factor/verify', { body: { challenge: step.challenge, code: totp.generate() } });
    expect(done.statusCode).toBe(200);
    expect(done.json().user.user_id).toBe(ana.user.userId);
    const linked = await t.ctx.db.select().from(auditLog).where(and(eq(auditLog.action, 'sso.linked'), eq(auditLog.targetId, String(ana.user.userId))));
    expect(linked).toHaveLength(1);
  });

  it('an organization Admin requires SSO for its domain: password sign-in is refused there, and SSO joins it as a Member', async () => {
    const orgAdmin = await buildUser(t.ctx);
    const member = await buildUser(t.ctx);
    const stranger = await buildUser(t.ctx);
    const org = await buildOrganization(t.ctx, [
      { user: orgAdmin, role: 'admin' },
      { user: member, role: 'member' },
    ]);
    const url = `/auth/sso/organizations/${org.organizationId}`;
    const body = { provider_id: providerId, required: true };
    expect((await call('PUT', url, { token: stranger.token, body })).statusCode).toBe(404);
    expect((await call('PUT', url, { token: member.token, body })).statusCode).toBe(403);
    expect((await call('GET', url, { token: member.token })).statusCode).toBe(403);
    expect((await call('PUT', url, { token: orgAdmin.token, body })).json().error).toBe('sso_domain_missing');
    expect((await call('PUT', url, { token: orgAdmin.token, body: { provider_id: 999999, required: false } })).statusCode).toBe(404);
    await t.ctx.db.update(organizations).set({ domain: 'acme-sso.test' }).where(eq(organizations.organizationId, org.organizationId));
    const saved = await call('PUT', url, { token: orgAdmin.token, body });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ provider_id: providerId, required: true, domain: 'acme-sso.test', providers: [{ provider_id: providerId, name: 'Local' }] });
    const audit = await t.ctx.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'organization'), eq(auditLog.targetId, String(org.organizationId))));
    expect(audit.at(-1)?.details).toContain('"required"');

    // Password sign-in (and sign-up) on the domain: refused, pointing to the provider.
    const bea = await buildUser(t.ctx, { email: 'bea@acme-sso.test' });
    const refused = await call('POST', '/auth/login', { body: { email: 'bea@acme-sso.test', password: bea.password } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'sso_required', code: providerId });
    expect(refused.json().message).toContain('Local');
    const signup = await call('POST', '/auth/signup', { body: { name: 'C', last_name: 'D', email: 'carl@acme-sso.test', password: 'first-Pass-1', phone: '5551234567' } });
    expect(signup.json().error).toBe('sso_required');

    // A new person on the domain signs in through it and is a Member (role 3).
    idp.accounts.set('dora', { email: 'dora@acme-sso.test', email_verified: true, given_name: 'Dora', family_name: 'Acme' });
    const session = await call('POST', '/auth/sso/exchange', { body: { code: codeOf(await signInAs('dora')) } });
    expect(session.statusCode).toBe(200);
    const [dora] = await t.ctx.db.select().from(users).where(eq(users.email, 'dora@acme-sso.test'));
    const [membership] = await t.ctx.db
      .select()
      .from(userOrganizations)
      .where(and(eq(userOrganizations.userId, dora.userId), eq(userOrganizations.organizationId, org.organizationId)));
    expect(membership.userTypeId).toBe(3);
    // Bea (existing, verified) links and joins too; her role is never lowered or duplicated on the next sign-in.
    idp.accounts.set('bea', { email: 'bea@acme-sso.test', email_verified: true, name: 'Bea' });
    await signInAs('bea');
    await signInAs('bea');
    const beaRows = await t.ctx.db.select().from(userOrganizations).where(eq(userOrganizations.userId, bea.user.userId));
    expect(beaRows.map((r) => r.userTypeId)).toEqual([3]);

    // Through another provider (here the same issuer configured twice), the domain's people are sent back.
    const other = (await call('POST', '/auth/sso/admin/providers', { token: admin.token, body: { name: 'Other', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret } })).json();
    idp.accounts.set('erin', { email: 'erin@acme-sso.test', email_verified: true, name: 'Erin' });
    idp.nextLogin = 'erin';
    const viaOther = await start(other.provider_id);
    expect(errorOf(await callback(await idp.signIn(viaOther.location.href), viaOther.cookie))).toBe('sso_wrong_provider');
    expect(await t.ctx.db.select().from(users).where(eq(users.email, 'erin@acme-sso.test'))).toHaveLength(0);
  });

  it('where SSO is required no other way opens a session (reset, passkey, another provider’s linked identity); staff keep theirs (break-glass)', async () => {
    const org = await buildOrganization(t.ctx);
    await t.ctx.db.update(organizations).set({ domain: 'beta-sso.test' }).where(eq(organizations.organizationId, org.organizationId));
    const required = await call('PUT', `/auth/sso/organizations/${org.organizationId}`, { token: admin.token, body: { provider_id: providerId, required: true } });
    expect(required.statusCode).toBe(200);
    const gus = await buildUser(t.ctx, { email: 'gus@beta-sso.test' });
    const mailsTo = async (to: string) => (await t.ctx.db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.to, to)))[0].n;

    // Asking for a reset mail: the same answer whether the account exists or not, and no mail.
    for (const email of ['gus@beta-sso.test', 'nobody@beta-sso.test']) {
      const asked = await call('POST', '/users/sendResetPasswordLink', { body: { email } });
      expect(asked.statusCode).toBe(403);
      expect(asked.json()).toMatchObject({ error: 'sso_required', code: providerId });
    }
    expect(await mailsTo('gus@beta-sso.test')).toBe(0);
    // A link made before the requirement (or by an admin) changes nothing and opens nothing, in the reader's language.
    const link = await createResetPasswordToken(t.ctx, gus.user.userId);
    const reset = await call('POST', '/auth/reset-password', { body: { token: link, password: 'brand-New-pass-2' }, lang: 'es' });
    expect(reset.statusCode).toBe(403);
    expect(reset.json()).toMatchObject({ error: 'sso_required', message: expect.stringContaining('Tu organización inicia sesión con Local') });
    const [stored] = await t.ctx.db.select({ hash: users.passwordHash }).from(users).where(eq(users.userId, gus.user.userId));
    expect(stored.hash).toBe(gus.user.passwordHash);

    // A passkey (registered on a session from before): refused to its holder.
    const device = new SoftAuthenticator('http://localhost');
    const registration = (await call('POST', '/auth/passkeys/register/options', { token: gus.token })).json();
    expect((await call('POST', '/auth/passkeys/register', { token: gus.token, body: { name: 'Key', credential: device.create(registration) } })).statusCode).toBe(201);
    const options = (await call('POST', '/auth/passkeys/sign-in/options')).json();
    const withPasskey = await call('POST', '/auth/passkeys/sign-in', { body: { credential: device.get(options) } });
    expect(withPasskey.statusCode).toBe(403);
    expect(withPasskey.json().error).toBe('sso_required');

    // An identity of another provider linked to the account, whose claims carry another address.
    const second = (await call('POST', '/auth/sso/admin/providers', { token: admin.token, body: { name: 'Second', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret } })).json();
    await t.ctx.db.insert(ssoIdentities).values({ userId: gus.user.userId, providerId: second.provider_id, issuer: idp.issuer, subject: 'gus-personal' });
    idp.accounts.set('gus-personal', { email: 'gus@personal.test', email_verified: true, name: 'Gus' });
    idp.nextLogin = 'gus-personal';
    const viaSecond = await start(second.provider_id);
    expect(errorOf(await callback(await idp.signIn(viaSecond.location.href), viaSecond.cookie))).toBe('sso_wrong_provider');

    // Staff on the domain are exempt: their password signs in, and asking for a reset answers the same but mails them.
    const ops = await buildUser(t.ctx, { email: 'ops@beta-sso.test', staffRole: 'manager' });
    // A wrong password gets what every other account on the domain gets: nothing tells a staff address.
    for (const email of ['ops@beta-sso.test', 'gus@beta-sso.test', 'nobody@beta-sso.test']) {
      const wrong = await call('POST', '/auth/login', { body: { email, password: 'not-Their-pass-9' } });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toMatchObject({ error: 'sso_required', code: providerId });
    }
    const opsLogin = await call('POST', '/auth/login', { body: { email: 'ops@beta-sso.test', password: ops.password } });
    expect(opsLogin.statusCode).toBe(200);
    expect(opsLogin.json().token).toEqual(expect.any(String));
    expect((await call('POST', '/users/sendResetPasswordLink', { body: { email: 'ops@beta-sso.test' } })).json().error).toBe('sso_required');
    expect(await mailsTo('ops@beta-sso.test')).toBe(1);
    const opsLink = await createResetPasswordToken(t.ctx, ops.user.userId);
    expect((await call('POST', '/auth/reset-password', { body: { token: opsLink, password: 'brand-New-pass-3' } })).statusCode).toBe(200);
  });
  it('requiring SSO (or enabling its provider again) ends the sessions the domain opened before; staff and other domains keep theirs', async () => {
    const orgAdmin = await buildUser(t.ctx, { email: 'boss@gamma-boss.test' });
    const chief = await buildUser(t.ctx, { email: 'chief@gamma-sso.test' });
    const org = await buildOrganization(t.ctx, [
      { user: orgAdmin, role: 'admin' },
      { user: chief, role: 'admin' },
    ]);
    await t.ctx.db.update(organizations).set({ domain: 'Gamma-SSO.test' }).where(eq(organizations.organizationId, org.organizationId));
    const gamma = (await call('POST', '/auth/sso/admin/providers', { token: admin.token, body: { name: 'Gamma', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret } })).json();
    const kim = await buildUser(t.ctx, { email: 'kim@GAMMA-sso.test' });
    const ops = await buildUser(t.ctx, { email: 'ops@gamma-sso.test', staffRole: 'manager' });
    const outsider = await buildUser(t.ctx, { email: 'kim@gamma-sso.test.example' });
    const signedIn = async (who: BuiltUser) => (await call('GET', '/users', { token: who.token })).statusCode;
    const url = `/auth/sso/organizations/${org.organizationId}`;

    // Choosing the provider without requiring it ends nothing.
    expect((await call('PUT', url, { token: orgAdmin.token, body: { provider_id: gamma.provider_id, required: false } })).statusCode).toBe(200);
    expect(await signedIn(kim)).toBe(200);
    // Requiring it: the domain's sessions end, the saving Admin's own too when on the domain (the answer is
    // still given); staff, and addresses merely ending like the domain, keep theirs.
    expect((await call('PUT', url, { token: chief.token, body: { provider_id: gamma.provider_id, required: true } })).statusCode).toBe(200);
    expect(await signedIn(kim)).toBe(401);
    expect(await signedIn(chief)).toBe(401);
    expect(await signedIn(orgAdmin)).toBe(200);
    expect(await signedIn(ops)).toBe(200);
    expect(await signedIn(outsider)).toBe(200);
    // Saving again what is already required ends nothing more.
    const again = await buildUser(t.ctx, { email: 'lee@gamma-sso.test' });
    expect((await call('PUT', url, { token: orgAdmin.token, body: { provider_id: gamma.provider_id, required: true } })).statusCode).toBe(200);
    expect(await signedIn(again)).toBe(200);

    // While the provider is disabled the requirement does not count; enabled again, what opened meanwhile ends.
    const provider = { name: 'Gamma', issuer: idp.issuer, client_id: idp.clientId };
    expect((await call('PUT', `/auth/sso/admin/providers/${gamma.provider_id}`, { token: admin.token, body: { ...provider, enabled: false } })).statusCode).toBe(200);
    const meanwhile = await buildUser(t.ctx, { email: 'max@gamma-sso.test' });
    expect((await call('POST', '/auth/login', { body: { email: 'max@gamma-sso.test', password: meanwhile.password } })).statusCode).toBe(200);
    expect((await call('PUT', `/auth/sso/admin/providers/${gamma.provider_id}`, { token: admin.token, body: { ...provider, enabled: true } })).statusCode).toBe(200);
    expect(await signedIn(meanwhile)).toBe(401);
    expect(await signedIn(ops)).toBe(200);

    // A new domain while SSO is required: the requirement now counts there, so that domain's sessions end; a
    // save that keeps the domain ends nothing.
    const dana = await buildUser(t.ctx, { email: 'dana@delta-sso.test' });
    const update = (body: object) => call('POST', '/organizations/update', { token: orgAdmin.token, body: { organization_id: org.organizationId, ...body } });
    const renamed = await update({ name: 'Gamma renamed' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await signedIn(dana)).toBe(200);
    expect((await update({ name: 'Gamma renamed', domain: 'delta-sso.test' })).statusCode).toBe(200);
    expect(await signedIn(dana)).toBe(401);
    expect(await signedIn(orgAdmin)).toBe(200);
    expect(await signedIn(ops)).toBe(200);
  });
});
