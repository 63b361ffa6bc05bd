// A new organization from nothing (issue 30 "Acceptance", items 12, 16, 17, 20), in English and Spanish:
// staff create it with every field of the spec's form at once (name, tagline, domain, thumbnail, welcome
// video, payment keys, AI key); add a Manager (an existing account) and a Member (a new email), whose mails
// name the organization; build a campaign and write its first document from inside it ("New document",
// named at creation); every breadcrumb and Back link on the way opens a page (never "Page not found");
// at 390 px the organization's tables are cards with nothing cut off.
import type { Page } from 'playwright-core';
import { afterAll, describe, inject } from 'vitest';
import campaignsEn from '../web/src/i18n/campaigns.en.json';
import campaignsEs from '../web/src/i18n/campaigns.es.json';
import organizationsEn from '../web/src/i18n/organizations.en.json';
import organizationsEs from '../web/src/i18n/organizations.es.json';
import { adminSessionToken, apiRequest, outboxFor } from './src/api';
import { expect, test } from './src/fixtures';
import { newcomer, signIn, signUpViaApi, type UiLang } from './src/journey-steps';
import { atWidth, clippedInTable } from './src/layout';

const ui = {
  en: { o: organizationsEn, c: campaignsEn, locale: 'en-US' },
  es: { o: organizationsEs, c: campaignsEs, locale: 'es-ES' },
} as const;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function adminLanguage(lang: UiLang) {
  await apiRequest('PUT', '/users', { token: await adminSessionToken(), body: { lang } });
}

afterAll(async () => {
  await adminLanguage('en');
});

/** The page has drawn its screen: a first-level heading (every page's header, and the not-found screen's). */
async function settled(page: Page) {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

/**
 * Follows every link of the breadcrumb bar of `path` (the crumbs and Back): none may end on "Page not
 * found". The first link is clicked; the others' destinations are opened directly, each once per journey
 * (`opened`: most crumbs of the organization area lead to the same few pages). Returns the links' targets.
 */
async function followCrumbs(page: Page, path: string, opened: Set<string>): Promise<string[]> {
  await page.goto(path);
  await settled(page);
  const links = page.getByTestId('breadcrumbs').locator('a');
  await links.first().waitFor();
  const hrefs = await links.evaluateAll((all) => all.map((a) => a.getAttribute('href') ?? ''));
  const landed = async (href: string) => {
    await settled(page);
    expect(await page.getByTestId('not-found').count(), `${path}: the link to ${href} ends on "Page not found"`).toBe(0);
    opened.add(href);
  };
  await links.first().click();
  await page.waitForURL((url) => url.pathname === hrefs[0].split('?')[0]);
  await landed(hrefs[0]);
  for (const href of hrefs.slice(1)) {
    if (opened.has(href)) continue;
    await page.goto(href);
    await landed(href);
  }
  return hrefs;
}

async function journey(openPage: (options?: { locale?: string }) => Promise<Page>, lang: UiLang) {
  const { o, c, locale } = ui[lang];
  const opened = new Set<string>();
  const suffix = `${lang}-${Date.now().toString(36)}`;
  const organizationName = `${lang === 'es' ? 'Agencia' : 'Agency'} ${suffix}`;
  const manager = newcomer(`new-org-manager-${lang}`);
  await signUpViaApi({ ...manager, lang } as typeof manager);
  const member = newcomer(`new-org-member-${lang}`);
  await adminLanguage(lang);

  // 1. Staff create the organization with every field of the form before the first save.
  const page = await openPage({ locale });
  await signIn(page, lang, inject('adminEmail'), inject('adminPassword'));
  await page.goto('/organizations');
  await page.getByTestId('create-organization').click();
  const form = page.getByTestId('organization-form');
  await form.waitFor();
  await page.getByTestId('organization-name').fill(organizationName);
  await page.getByTestId('organization-tagline').fill(lang === 'es' ? 'Escribimos juntos' : 'We write together');
  await page.getByTestId('organization-domain').fill(`${suffix}.agency.example.com`);
  await form.locator('input[type="file"]').first().setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await form.locator('.mantine-Avatar-image').first().waitFor();
  await page.getByTestId('organization-video-source').getByText(o.settings.videoUrl).click();
  await page.getByTestId('organization-video-url').fill('https://videos.example.com/welcome');
  await page.getByTestId('organization-stripe-public').fill('pk_test_new_org_0001');
  for (const [field, value] of [
    ['stripe_secret', 'sk_test_new_org_secret_4242'],
    ['stripe_webhook_secret', 'whsec_new_org_9876'],
    ['openai_api_key', 'sk-new-org-ai-key-abcd'],
  ] as const) {
    await page.getByTestId(`replace-${field}`).click();
    await page.getByTestId(`secret-${field}`).fill(value);
  }
  await page.getByTestId('organization-save').click();
  await page.waitForURL(/\/organizations\/organization-settings\/\d+$/);
  const organizationId = Number(page.url().split('/').pop());
  const saved = await apiRequest<Record<string, string | null>>('GET', `/organizations/${organizationId}?organization_id=${organizationId}`, { token: await adminSessionToken() });
  expect(saved).toMatchObject({
    name: organizationName,
    domain: `${suffix}.agency.example.com`,
    welcome_video: 'https://videos.example.com/welcome',
    stripe_public: 'pk_test_new_org_0001',
    stripe_secret: '••••••••4242',
    stripe_webhook_secret: '••••••••9876',
    openai_api_key: '••••••••abcd',
  });
  expect(saved.thumbnail).toMatch(/^\/api\/files\//);
  await followCrumbs(page, `/organizations/organization-settings/${organizationId}`, opened);

  // 2. From its card, the admin panel: a Manager (an existing account) and a Member (a new email).
  await page.goto('/organizations');
  await page.getByTestId('organization-card').filter({ hasText: organizationName }).getByTestId('organization-admin-panel').click();
  await page.getByTestId('members-page').waitFor();
  await expect.poll(() => page.getByTestId('organization-select').inputValue()).toBe(organizationName);
  await followCrumbs(page, '/organization/admin-panel/new', opened);
  const addUser = async (email: string, role: 'manager' | 'member') => {
    await page.goto('/organization/admin-panel');
    await page.getByTestId('add-member').click();
    await page.getByTestId('member-form').waitFor();
    await page.getByTestId('member-email').fill(email);
    await page.getByTestId('member-role').click();
    await page.getByRole('option', { name: o.roles[role], exact: true }).click();
    await page.getByTestId('member-save').click();
    await page.getByTestId('members-page').waitFor();
    await page.getByTestId('member-row').filter({ hasText: email }).waitFor();
  };
  await addUser(manager.email, 'manager');
  await addUser(member.email, 'member');
  // Their mails name the organization.
  for (const email of [manager.email, member.email]) {
    await expect.poll(async () => (await outboxFor(email)).filter((m) => m.kind === 'organization_invite').length).toBe(1);
    const [mail] = (await outboxFor(email)).filter((m) => m.kind === 'organization_invite');
    expect(mail.subject).toContain(organizationName);
    expect(mail.text).toContain(organizationName);
  }
  await followCrumbs(page, '/organization/admin-panel', opened);

  // 3. A campaign, and its first document written from inside it.
  await page.getByTestId('organization-nav-campaigns').click();
  await page.getByTestId('campaigns-page').waitFor();
  await page.getByTestId('create-campaign').click();
  const campaignName = `${c.list.title} ${suffix}`;
  await page.getByTestId('campaign-name').fill(campaignName);
  await page.getByTestId('campaign-save').click();
  await page.getByTestId('campaign-card').filter({ hasText: campaignName }).getByTestId('open-campaign').click();
  await page.getByTestId('campaign-page').waitFor();
  const campaignPath = new URL(page.url()).pathname;
  // A new organization has no document at all: Add says so (not "every document is already in it").
  await page.getByTestId('add-resource').click();
  await page.getByTestId('no-resource-candidates').filter({ hasText: c.resources.noneInOrganization_document }).waitFor();
  await page.keyboard.press('Escape');
  // The closed modal keeps its (empty) root.
  await expect.poll(() => page.getByTestId('add-resource-modal').locator('*').count()).toBe(0);
  await page.getByTestId('new-campaign-document').click();
  const documentName = `${lang === 'es' ? 'Plan de lanzamiento' : 'Launch plan'} ${suffix}`;
  await page.getByTestId('new-campaign-document-name').fill(documentName);
  await page.getByTestId('new-campaign-document-create').click();
  await page.waitForURL(/\/campaign\/\d+\/documents\/\d+$/);
  await page.getByTestId('campaign-document-page').waitFor();
  // Named at creation (not "Untitled document").
  await page.getByRole('heading', { level: 1, name: documentName, exact: true }).waitFor();
  const documentPath = new URL(page.url()).pathname;
  await page.getByTestId('campaign-document-back').click();
  await page.getByTestId('campaign-page').waitFor();
  await page.getByTestId('resource-card').filter({ hasText: documentName }).waitFor();
  for (const path of ['/organization/campaigns', campaignPath, `${campaignPath}/users`, documentPath, '/organization/groups', '/organization/analytics']) {
    const visited = await followCrumbs(page, path, opened);
    expect(visited.length, `${path} has a breadcrumb link`).toBeGreaterThan(0);
  }

  // 4. At 390 px: the organization's tables are cards; Role, LTV and the actions are there, nothing cut off.
  await atWidth(page, 'phone');
  await page.goto('/organization/admin-panel');
  const table = page.getByTestId('members-table');
  const managerRow = table.getByTestId('member-row').filter({ hasText: manager.email });
  await managerRow.waitFor();
  expect(await clippedInTable(table)).toEqual([]);
  await managerRow.getByText(o.roles.manager, { exact: true }).waitFor();
  expect(await managerRow.getByRole('button').count()).toBe(2);
  expect(await managerRow.getByRole('button').first().isVisible()).toBe(true);
  await page.goto(`${campaignPath}/users`);
  await page.getByTestId('campaign-users-page').waitFor();
  expect(await clippedInTable(page.getByTestId('campaign-users'))).toEqual([]);
  await page.goto('/organizations');
  const card = page.getByTestId('organization-card').filter({ hasText: organizationName });
  await card.waitFor();
  expect(await clippedInTable(card)).toEqual([]);
  await atWidth(page, 'desktop');
}

describe('a new organization', () => {
  for (const lang of ['en', 'es'] as const) {
    test(`[NEW ORGANIZATION] ${lang.toUpperCase()}: created with every field at once; a Manager and a Member added (their mails name it); a campaign's first document made inside it; every breadcrumb and Back link opens a page; nothing cut off at 390 px`, async ({
      openPage,
    }) => {
      await journey(openPage, lang);
    });
  }
});
