// Single sign-on through a real OpenID provider (issue 33 item 4): `oidc-provider` started here on 127.0.0.1
// (the lane's server allows it: OUTBOUND_ALLOW_HOSTS), its login and consent approving at once as the person
// the step names. The browser uses http://localhost:PORT, the server's own address without PUBLIC_URL, so the
// provider's redirect back reaches the browser that started. EN: the organization's Admin (a staff admin)
// requires SSO in the organization settings; a newcomer on the domain continues with the provider and lands in
// the organization. ES: a password sign-in on that domain is sent to the provider; a newcomer continues with it.
import { afterAll, beforeAll, describe } from 'vitest';
import { inject } from 'vitest';
import type { Page } from 'playwright-core';
import ssoEn from '../web/src/i18n/sso.en.json';
import { startTestIssuer, type TestIssuer } from '../server/src/test/oidc-issuer';
import { adminSessionToken, apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { currentLane } from './src/lanes';
import { fillLogin, signIn, signOut, texts, type UiLang } from './src/journey-steps';

let idp: TestIssuer;
let providerId: number;
let organization: { organization_id: number; name: string };
const tag = Date.now().toString(36);
const domain = `sso-${tag}.test`;
const providerName = `Pluma IdP ${tag}`;
// The server's own address (publicBaseUrl without PUBLIC_URL): where the provider sends the browser back.
const localBase = () => currentLane().baseUrl.replace('127.0.0.1', 'localhost');

beforeAll(async () => {
  idp = await startTestIssuer({ redirectUri: `${localBase()}/api/auth/sso/callback` });
  const token = await adminSessionToken();
  const provider = await apiRequest<{ provider_id: number }>('POST', '/auth/sso/admin/providers', {
    token,
    body: { name: providerName, issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret },
  });
  providerId = provider.provider_id;
  organization = await apiRequest('POST', '/organizations', { token, body: { name: `SSO Org ${tag}`, domain } });
});

afterAll(async () => {
  // Other journeys on this lane show /login without it.
  if (providerId) await apiRequest('DELETE', `/auth/sso/admin/providers/${providerId}`, { token: await adminSessionToken() }).catch(() => undefined);
  await idp?.close();
});

/** From /login: continue with the provider as `sub` (a newcomer on the domain) and land signed in, in the organization. */
async function continueWithProvider(page: Page, lang: UiLang, sub: string) {
  idp.accounts.set(sub, { email: `${sub}@${domain}`, email_verified: true, given_name: sub, family_name: 'SSO' });
  idp.nextLogin = sub;
  await page.getByRole('link', { name: texts[lang].sso.continueWith.replace('{{provider}}', providerName) }).click();
  // Signed in: the session is kept, the one-time code is gone from the address.
  await page.waitForFunction(() => localStorage.getItem('token') !== null);
  expect(page.url()).not.toContain('sso_code');
  const mine = await page.evaluate(async () => {
    const response = await fetch('/api/organizations', { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
    return ((await response.json()) as { organizations: { organization_id: number }[] }).organizations.map((o) => o.organization_id);
  });
  expect(mine).toContain(organization.organization_id);
}

describe('single sign-on', () => {
  test('[AUTH] an organization requires SSO for its domain and a newcomer continues with the provider into it (EN)', async ({ openPage }) => {
    const page = await openPage({ baseURL: localBase() });
    await signIn(page, 'en', inject('adminEmail'), inject('adminPassword'));
    await page.goto(`/organizations/organization-settings/${organization.organization_id}`);
    const card = page.getByTestId('organization-sso');
    await card.getByTestId('organization-sso-provider').click();
    await page.getByRole('option', { name: providerName }).click();
    await card.getByLabel(ssoEn.organization.required).check({ force: true });
    await card.getByRole('button', { name: ssoEn.organization.save }).click();
    await page.getByText(ssoEn.organization.saved).waitFor();
    await signOut(page, 'en');

    await page.goto('/login');
    await continueWithProvider(page, 'en', `ana-${tag}`);
  });

  test('[AUTH] a password sign-in on the domain is sent to the provider; continuing with it signs in (ES)', async ({ openPage }) => {
    const page = await openPage({ baseURL: localBase(), locale: 'es-ES' });
    await page.goto('/login');
    await fillLogin(page, 'es', `nadie-${tag}@${domain}`, 'first-Pass-1');
    await page.getByRole('alert').getByText(providerName).waitFor();
    await continueWithProvider(page, 'es', `eva-${tag}`);
  });
});
