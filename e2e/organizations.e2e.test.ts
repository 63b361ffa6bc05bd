// Organizations journey (issue 12 "Acceptance"; spec part 2 §2, §4, §6), in English and Spanish: staff create
// an organization and, in its admin panel, add a manager (an existing account) and a member (a new email:
// the member receives the password-recovery mail in the outbox, chooses a password and is signed in, in
// the organization that is now their default); the manager picks the organization in the sidebar, creates
// a group and adds the member; the member sees the organization's pages without admin icons; switching
// back to Personal hides the organization's records (a conversation made in it).
import type { Page } from 'playwright-core';
import { afterAll, describe, inject } from 'vitest';
import groupsEn from '../web/src/i18n/groups.en.json';
import groupsEs from '../web/src/i18n/groups.es.json';
import organizationsEn from '../web/src/i18n/organizations.en.json';
import organizationsEs from '../web/src/i18n/organizations.es.json';
import { adminSessionToken, apiRequest, waitForMailedLink } from './src/api';
import { expect, test } from './src/fixtures';
import { label, newcomer, signIn, signUpViaApi, texts, type UiLang } from './src/journey-steps';

const ui = {
  en: { o: organizationsEn, g: groupsEn, locale: 'en-US' },
  es: { o: organizationsEs, g: groupsEs, locale: 'es-ES' },
} as const;

async function adminLanguage(lang: UiLang) {
  await apiRequest('PUT', '/users', { token: await adminSessionToken(), body: { lang } });
}

afterAll(async () => {
  await adminLanguage('en');
});

/** Gives a user access as the admin (a gift of a seeded plan), so the organization's pages are theirs. */
async function giveAccess(userId: number) {
  const products = await apiRequest<{ product_id: number; word_amount: number | null }[]>('GET', '/products/available');
  const plan = products.find((p) => p.word_amount === null) ?? products[0];
  if (!plan) throw new Error('no product to give access with: the server seeds sample plans on a fresh database');
  await apiRequest('POST', '/users/giveAccess', { token: await adminSessionToken(), body: { user_id: userId, product_id: plan.product_id, gift: true } });
}

/** Picks an option of the sidebar's organization picker. */
async function pickOrganization(page: Page, name: string) {
  await page.getByTestId('organization-select').click();
  await page.getByRole('option', { name, exact: true }).click();
  await expect.poll(() => page.getByTestId('organization-select').inputValue()).toBe(name);
}

async function journey(openPage: (options?: { locale?: string }) => Promise<Page>, lang: UiLang) {
  const { o, g, locale } = ui[lang];
  const admin = await adminSessionToken();
  const suffix = Date.now().toString(36);
  const organizationName = `${lang === 'es' ? 'Equipo' : 'Team'} ${suffix}`;
  const manager = newcomer(`org-manager-${lang}`);
  await signUpViaApi({ ...manager, lang } as typeof manager);
  const member = newcomer(`org-member-${lang}`);
  await adminLanguage(lang);

  // 1. Staff create the organization (the creator is its Admin) and open its admin panel from its card.
  const page = await openPage({ locale });
  await signIn(page, lang, inject('adminEmail'), inject('adminPassword'));
  await page.goto('/organizations');
  await page.getByTestId('create-organization').click();
  await page.getByTestId('organization-form').waitFor();
  await page.getByTestId('organization-save').click();
  await page.getByText(o.settings.nameRequired).first().waitFor();
  await page.getByTestId('organization-name').fill(organizationName);
  await page.getByTestId('organization-save').click();
  await page.waitForURL(/\/organizations\/organization-settings\/\d+$/);
  const organizationId = Number(page.url().split('/').pop());
  await page.goto('/organizations');
  const card = page.getByTestId('organization-card').filter({ hasText: organizationName });
  await card.getByTestId('organization-admin-panel').click();
  await page.getByTestId('members-page').waitFor();
  await expect.poll(() => page.getByTestId('organization-select').inputValue()).toBe(organizationName);

  // 2. Add the manager (an existing account) and the member (a new email).
  const addUser = async (email: string, role: 'manager' | 'member', name?: string) => {
    await page.getByTestId('add-member').click();
    await page.getByTestId('member-form').waitFor();
    await page.getByTestId('member-email').fill(email);
    if (name) await page.getByTestId('member-name').fill(name);
    await page.getByTestId('member-role').click();
    await page.getByRole('option', { name: o.roles[role], exact: true }).click();
    await page.getByTestId('member-save').click();
    await page.getByTestId('members-page').waitFor();
    await page.getByTestId('member-row').filter({ hasText: email }).waitFor();
  };
  await addUser(manager.email, 'manager');
  await addUser(member.email, 'member', member.name);
  const rows = await apiRequest<{ users: { user_id: number; email: string; role: string }[] }>('GET', `/organizations/${organizationId}/users?organization_id=${organizationId}`, { token: admin });
  const roles = Object.fromEntries(rows.users.map((u) => [u.email, u.role]));
  expect(roles[manager.email]).toBe('manager');
  expect(roles[member.email]).toBe('member');
  for (const user of rows.users.filter((u) => u.email !== inject('adminEmail'))) await giveAccess(user.user_id);

  // 3. The new member's invitation mail (issue 30 item 19): choose a password, signed in — in the
  // organization (their default).
  const link = await waitForMailedLink(member.email, 'organization_invite');
  const memberPage = await openPage({ locale });
  await memberPage.goto(link);
  // The reset page opens in the account's language (a new account starts in its inviter's).
  const linkLang: UiLang = new URL(link, 'http://x').searchParams.get('lang') === 'es' ? 'es' : 'en';
  const password = 'member-Pass-1';
  await memberPage.getByLabel(label(texts[linkLang].reset.newPassword)).fill(password);
  await memberPage.getByLabel(label(texts[linkLang].signup.confirmPassword)).fill(password);
  await memberPage.getByRole('button', { name: texts[linkLang].reset.submit }).click();
  await memberPage.getByTestId('app-sidebar').waitFor();
  await expect.poll(() => memberPage.getByTestId('organization-select').inputValue()).toBe(organizationName);

  // 4. The manager picks the organization, creates a group and adds the member to it.
  const managerPage = await openPage({ locale });
  await signIn(managerPage, lang, manager.email, manager.password);
  await pickOrganization(managerPage, organizationName);
  await managerPage.getByTestId('organization-nav-admin-panel').waitFor();
  await managerPage.getByTestId('organization-nav-groups').click();
  await managerPage.getByTestId('groups-page').waitFor();
  await managerPage.getByTestId('create-group').click();
  const groupName = `${g.list.title} ${suffix}`;
  await managerPage.getByTestId('group-name').fill(groupName);
  await managerPage.getByTestId('group-save').click();
  await managerPage.getByText(g.form.saved).waitFor();
  const groupCard = managerPage.getByTestId('group-card').filter({ hasText: groupName });
  await groupCard.getByTestId('view-group').click();
  await managerPage.getByTestId('group-page').waitFor();
  await managerPage.getByTestId('add-group-users').click();
  const modal = managerPage.getByTestId('add-group-users-modal');
  await modal.getByTestId('group-candidate').click();
  // The candidates are the members not in the group: the Admin (staff), the manager and the member.
  await managerPage.getByRole('option', { name: new RegExp(member.email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).click();
  await modal.getByTestId('add-group-user').click();
  await managerPage.getByText(g.users.added).waitFor();
  await managerPage.getByTestId('group-user-row').filter({ hasText: member.email }).waitFor();

  // 5. The member sees the organization's groups, without admin icons or organization tabs.
  await memberPage.getByTestId('organization-nav-groups').click();
  await memberPage.getByTestId('groups-page').waitFor();
  await memberPage.getByTestId('group-card').filter({ hasText: groupName }).waitFor();
  expect(await memberPage.getByTestId('create-group').count()).toBe(0);
  expect(await memberPage.getByTestId('edit-group').count()).toBe(0);
  expect(await memberPage.getByTestId('delete-group').count()).toBe(0);
  expect(await memberPage.getByTestId('organization-nav-admin-panel').count()).toBe(0);
  expect(await memberPage.getByTestId('organization-nav-organization-settings').count()).toBe(0);
  await memberPage.goto('/organizations');
  const memberCard = memberPage.getByTestId('organization-card').filter({ hasText: organizationName });
  await memberCard.waitFor();
  expect(await memberCard.getByTestId('organization-admin-panel').count()).toBe(0);
  expect(await memberCard.getByTestId('organization-settings').count()).toBe(0);

  // 6. A conversation made in the organization shows there, and not in Personal — which this browser
  // remembers over the member's default organization after a reload.
  const memberToken = await memberPage.evaluate(() => localStorage.getItem('token'));
  const conversationName = `${organizationName} notes`;
  await apiRequest('POST', '/conversations', { token: memberToken ?? '', body: { name: conversationName, organization_id: organizationId } });
  await memberPage.goto('/conversations');
  await memberPage.getByTestId('conversation-card').filter({ hasText: conversationName }).waitFor();
  await pickOrganization(memberPage, o.picker.personal);
  await memberPage.waitForURL((url) => url.pathname === '/');
  await memberPage.goto('/conversations');
  await memberPage.getByTestId('conversations-page').waitFor();
  await memberPage.getByTestId('conversations-empty').waitFor();
  expect(await memberPage.getByTestId('conversation-card').filter({ hasText: conversationName }).count()).toBe(0);
}

describe('organizations', () => {
  for (const lang of ['en', 'es'] as const) {
    test(`[ORGANIZATIONS] ${lang.toUpperCase()}: staff create an organization and add a manager and a new member (recovery mail, signed in); the manager makes a group with the member; the member sees it without admin icons; Personal hides the organization's records`, async ({
      openPage,
    }) => {
      await journey(openPage, lang);
    });
  }
});
