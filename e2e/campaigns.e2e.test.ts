// Campaigns journey (issue 15 item 2; spec part 2 §2 "Campaigns list", "Campaign detail", "Campaign users
// page"; §6; §8), in English and Spanish: in an organization, a Manager creates a campaign with a thumbnail,
// adds the organization's template to it and gives a group access on the users page; a Member of that group
// finds the campaign and its template (linked to the template's edit page); a Member outside the group sees
// no campaign. axe: no serious or critical violations on the three screens. The documents side (the campaign document page) belongs to the documents journey.
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import campaignsEn from '../web/src/i18n/campaigns.en.json';
import campaignsEs from '../web/src/i18n/campaigns.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { adminSessionToken, apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { signIn, userWithAccess, type UiLang } from './src/journey-steps';

const ui = { en: { c: campaignsEn, locale: 'en-US' }, es: { c: campaignsEs, locale: 'es-ES' } } as const;

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function pickOrganization(page: Page, name: string) {
  await page.getByTestId('organization-select').click();
  await page.getByRole('option', { name, exact: true }).click();
  await expect.poll(() => page.getByTestId('organization-select').inputValue()).toBe(name);
}

/** A closed modal keeps its (empty) root; its fading content would be read by axe until it is gone. */
async function modalGone(page: Page, testId: string) {
  await expect.poll(() => page.getByTestId(testId).locator('*').count()).toBe(0);
}

async function chooseOption(page: Page, selectTestId: string, name: string) {
  const modalSelect = page.getByTestId(selectTestId);
  await expect.poll(() => modalSelect.isEnabled()).toBe(true);
  await modalSelect.click();
  await page.getByRole('option', { name, exact: true }).click();
}

async function journey(openPage: (options?: { locale?: string }) => Promise<Page>, lang: UiLang) {
  const { c, locale } = ui[lang];
  const admin = await adminSessionToken();
  const suffix = Date.now().toString(36);
  const manager = await userWithAccess(`campaign-manager-${lang}`, lang);
  const reader = await userWithAccess(`campaign-reader-${lang}`, lang);
  const outsider = await userWithAccess(`campaign-outsider-${lang}`, lang);

  // The organization, its members, a group holding the reader, and a template made in the organization.
  const organizationName = `Campaigns ${lang} ${suffix}`;
  const organization = await apiRequest<{ organization_id: number }>('POST', '/organizations', { token: admin, body: { name: organizationName } });
  const organizationId = organization.organization_id;
  const add = (email: string, userTypeId: number) =>
    apiRequest<{ user_id: number }>('POST', `/organizations/users?organization_id=${organizationId}`, { token: admin, body: { organization_id: organizationId, email, user_type_id: userTypeId } });
  await add(manager.email, 2);
  const readerId = (await add(reader.email, 3)).user_id;
  await add(outsider.email, 3);
  const groupName = `Readers ${suffix}`;
  const group = await apiRequest<{ group_id: number }>('POST', `/groups?organization_id=${organizationId}`, { token: manager.token, body: { name: groupName, organization_id: organizationId } });
  await apiRequest('POST', `/groups/users/${readerId}/${group.group_id}?organization_id=${organizationId}`, { token: manager.token });
  const templateName = `Press release ${suffix}`;
  const template = await apiRequest<{ template_id: number }>('POST', `/templates?organization_id=${organizationId}`, {
    token: manager.token,
    body: { name: templateName, description: 'News', content: 'Write about [topic]', organization_id: organizationId },
  });

  // 1. The Manager creates the campaign with a thumbnail.
  const page = await openPage({ locale });
  await signIn(page, lang, manager.email, manager.password);
  await pickOrganization(page, organizationName);
  await page.getByTestId('organization-nav-campaigns').click();
  await page.getByTestId('campaigns-page').waitFor();
  await page.getByTestId('campaigns-empty').waitFor();
  await page.getByTestId('create-campaign').click();
  const campaignName = `${c.list.title} ${suffix}`;
  await page.getByTestId('campaign-name').fill(campaignName);
  await page.getByTestId('campaign-description').fill('Q2');
  await page.getByTestId('campaign-form-modal').locator('input[type="file"]').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
  await page.getByTestId('campaign-save').click();
  await page.getByText(c.form.saved).first().waitFor();
  const card = page.getByTestId('campaign-card').filter({ hasText: campaignName });
  await card.getByTestId('campaign-thumbnail').waitFor();
  await modalGone(page, 'campaign-form-modal');
  await expectNoSeriousA11yViolations(page, `campaigns list (${lang})`);

  // 2. Its page: the template is added from the organization's templates.
  await card.getByTestId('open-campaign').click();
  await page.getByTestId('campaign-page').waitFor();
  await page.getByTestId('resources-empty').filter({ hasText: c.resources.empty.replace('{{type}}', c.typeWords.document) }).waitFor();
  await page.getByTestId('resource-type').getByText(c.detail.templates).click();
  await page.getByTestId('add-resource').click();
  await chooseOption(page, 'resource-candidate', templateName);
  await page.getByTestId('add-resource-confirm').click();
  await page.getByText(c.resources.added.replace('{{type}}', c.typeWords.template)).first().waitFor();
  await page.getByTestId('resource-card').filter({ hasText: templateName }).waitFor();
  await modalGone(page, 'add-resource-modal');
  await expectNoSeriousA11yViolations(page, `campaign page (${lang})`);

  // 3. The users page: the group is given access.
  await page.getByTestId('campaign-users-link').click();
  await page.getByTestId('campaign-users-page').waitFor();
  await page.getByTestId('add-campaign-group').click();
  await chooseOption(page, 'access-candidate', groupName);
  await page.getByTestId('give-access').click();
  await page.getByText(c.access.given).first().waitFor();
  await page.getByTestId('campaign-group-row').filter({ hasText: groupName }).waitFor();
  // The closing modal fades out over the page; axe reads the page once it is gone.
  await modalGone(page, 'give-access-modal');
  await expectNoSeriousA11yViolations(page, `campaign users page (${lang})`);

  // 4. The group's Member finds the campaign, read only, and its template linked to the editor.
  const readerPage = await openPage({ locale });
  await signIn(readerPage, lang, reader.email, reader.password);
  await pickOrganization(readerPage, organizationName);
  await readerPage.getByTestId('organization-nav-campaigns').click();
  const readerCard = readerPage.getByTestId('campaign-card').filter({ hasText: campaignName });
  await readerCard.waitFor();
  expect(await readerPage.getByTestId('create-campaign').count()).toBe(0);
  expect(await readerCard.getByTestId('campaign-menu').count()).toBe(0);
  await readerCard.getByTestId('open-campaign').click();
  await readerPage.getByTestId('resource-type').getByText(c.detail.templates).click();
  const link = readerPage.getByTestId('resource-card').filter({ hasText: templateName }).getByTestId('resource-link');
  await expect.poll(() => link.getAttribute('href')).toBe(`/templates/edit-template/${template.template_id}`);
  expect(await readerPage.getByTestId('add-resource').count()).toBe(0);

  // 5. A Member outside the group sees no campaign.
  const outsiderPage = await openPage({ locale });
  await signIn(outsiderPage, lang, outsider.email, outsider.password);
  await pickOrganization(outsiderPage, organizationName);
  await outsiderPage.getByTestId('organization-nav-campaigns').click();
  await outsiderPage.getByTestId('campaigns-empty').filter({ hasText: c.list.empty }).waitFor();
}

describe('campaigns journey', () => {
  test('[EN] a Manager builds a campaign, a group is given access, its Member reads it', async ({ openPage }) => journey(openPage, 'en'));
  test('[ES] a Manager builds a campaign, a group is given access, its Member reads it', async ({ openPage }) => journey(openPage, 'es'));
});
