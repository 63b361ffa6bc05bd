// Links we mail or hand to staff are built from PUBLIC_URL (else http://localhost:PORT), never from the
// request's Host or X-Forwarded-Host: a forged header must not put another site into a reset email.
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { publicBaseUrl, publicUrlWarning } from '../../platform/http/public-url';

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.91.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};

// Every header a client (or a proxy it fools) could use to name the site.
const forged = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

const setups: { name: string; env: Record<string, string>; origin: string }[] = [
  { name: 'with PUBLIC_URL', env: { PUBLIC_URL: 'https://pluma.example/app/', TRUST_PROXY: 'true' }, origin: 'https://pluma.example/app' },
  { name: 'without PUBLIC_URL (localhost:PORT)', env: { PORT: '4321', TRUST_PROXY: 'true' }, origin: 'http://localhost:4321' },
];

describe.each(setups)('mailed links $name', ({ env, origin }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(env);
  });
  afterAll(() => t.close());

  const latestMailTo = async (to: string) => {
    const [mail] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.mailId)).limit(1);
    return mail;
  };
  const linksIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]);

  it('the welcome mail of a sign-up with a forged Host links to the configured origin', async () => {
    const email = `welcome-${Date.now()}@example.com`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      headers: forged,
      remoteAddress: nextIp(),
      payload: { name: 'Ana', last_name: 'Ruiz', email, password: 'secret-pass', phone: '+525 551 234567' },
    });
    expect(res.statusCode).toBe(201);
    const mail = await latestMailTo(email);
    expect(mail.text).not.toContain('evil.example');
    const links = linksIn(mail.text);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.startsWith(origin)).toBe(true);
  });

  it('the recovery mail links to the configured origin, in the user language', async () => {
    const { user } = await buildUser(t.ctx, { lang: 'es' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/sendResetPasswordLink',
      headers: forged,
      remoteAddress: nextIp(),
      payload: { email: user.email },
    });
    expect(res.statusCode).toBe(200);
    const mail = await latestMailTo(user.email);
    expect(mail.text).not.toContain('evil.example');
    const [text] = linksIn(mail.text);
    const link = new URL(text);
    expect(`${link.origin}${link.pathname}`).toBe(`${origin}/reset-password`);
    expect(link.searchParams.get('lang')).toBe('es');
    expect(link.searchParams.get('token')).toMatch(/^\S{20,}$/);
  });

  it('the reset link handed to staff has the configured origin too', async () => {
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const { user } = await buildUser(t.ctx, { lang: 'en' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/resetPasswordLink',
      headers: { ...forged, ...admin.auth },
      payload: { email: user.email },
    });
    expect(res.statusCode).toBe(200);
    const link = new URL(res.json().link);
    expect(`${link.origin}${link.pathname}`).toBe(`${origin}/reset-password`);
    expect(link.searchParams.get('lang')).toBe('en');
  });
});

describe('publicBaseUrl and the boot warning', () => {
  it('uses PUBLIC_URL without a trailing slash, else localhost:PORT with one warning', () => {
    expect(publicBaseUrl({ env: { PUBLIC_URL: 'https://a.example/', PORT: 3000 } })).toBe('https://a.example');
    expect(publicUrlWarning({ PUBLIC_URL: 'https://a.example', PORT: 3000 })).toBeNull();
    expect(publicBaseUrl({ env: { PUBLIC_URL: undefined, PORT: 8080 } })).toBe('http://localhost:8080');
    expect(publicUrlWarning({ PUBLIC_URL: undefined, PORT: 8080 })).toMatch(/PUBLIC_URL is not set.*http:\/\/localhost:8080/);
  });
});
