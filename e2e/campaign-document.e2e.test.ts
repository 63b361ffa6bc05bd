// Campaign document journey (issue 15 acceptance: "build a campaign with a document and a template, grant a
// group, and as a member of that group open the campaign document and generate with the two-step modal";
// spec part 2 §2 "Campaign document page", §4, §6), in English and Spanish, in the real BlockNote editor
// against the Demo model. An organization's Admin builds the campaign through the API (the campaign screens are
// covered by campaigns.e2e.test.ts): a document, a template with a field, a group holding a Member, the group
// granted. The Member opens the document from the campaign page (read-only, 'Generate Document'), goes through
// the modal (template and its field → Next → avatar → Generate), the view moves to Edit where the answer
// streams into an unsaved copy under the read-only notice, and 'Save as my document' makes it their own
// Personal document, opened in the editor with every word.
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import docEn from '../web/src/i18n/documents.en.json';
import docEs from '../web/src/i18n/documents.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { adminSessionToken, apiRequest } from './src/api';
import { editorText } from './src/documents-steps';
import { expect, test } from './src/fixtures';
import { signIn, userWithAccess, type UiLang } from './src/journey-steps';

const ui = { en: { d: docEn, locale: 'en-US' }, es: { d: docEs, locale: 'es-ES' } } as const;

const SCRIPT = {
  en: { document: 'Spring brief', text: 'Our trail shoes reach Madrid in spring.', template: 'Press release', topic: '[rate:20] the trail shoes', avatar: 'Coach Rita' },
  es: { document: 'Resumen de primavera', text: 'Nuestras zapatillas llegan a Madrid en primavera.', template: 'Nota de prensa', topic: '[rate:20] las zapatillas', avatar: 'Entrenadora Rita' },
} as const;

const paragraph = (text: string) => [{ type: 'paragraph', props: {}, content: [{ type: 'text', text, styles: {} }], children: [] }];

async function pickOrganization(page: Page, name: string) {
  await page.getByTestId('organization-select').click();
  await page.getByRole('option', { name, exact: true }).click();
  await expect.poll(() => page.getByTestId('organization-select').inputValue()).toBe(name);
}

async function journey(openPage: (options?: { locale?: string }) => Promise<Page>, lang: UiLang) {
  const { d, locale } = ui[lang];
  const s = SCRIPT[lang];
  const staff = await adminSessionToken();
  const suffix = Date.now().toString(36);
  const admin = await userWithAccess(`campaign-doc-admin-${lang}`, lang);
  const member = await userWithAccess(`campaign-doc-member-${lang}`, lang);

  // The organization (made by staff), its Admin and the Member.
  const organizationName = `Campaign documents ${lang} ${suffix}`;
  const { organization_id: organizationId } = await apiRequest<{ organization_id: number }>('POST', '/organizations', { token: staff, body: { name: organizationName } });
  const inOrg = `?organization_id=${organizationId}`;
  const add = (email: string, userTypeId: number) =>
    apiRequest<{ user_id: number }>('POST', `/organizations/users${inOrg}`, { token: staff, body: { organization_id: organizationId, email, user_type_id: userTypeId } });
  await add(admin.email, 1);
  const memberId = (await add(member.email, 3)).user_id;

  // The Admin builds the campaign: a document, a template with one field, a group with the Member, the grant.
  const documentName = `${s.document} ${suffix}`;
  const doc = await apiRequest<{ document_id: number }>('POST', `/documents${inOrg}`, { token: admin.token, body: { name: documentName, blocks: paragraph(s.text), content: `<p>${s.text}</p>` } });
  const templateName = `${s.template} ${suffix}`;
  const template = await apiRequest<{ template_id: number }>('POST', `/templates${inOrg}`, {
    token: admin.token,
    body: { name: templateName, description: 'News', content: 'Write a short press release about [topic]', organization_id: organizationId },
  });
  const campaign = await apiRequest<{ campaign_id: number }>('POST', `/campaigns${inOrg}`, { token: admin.token, body: { organization_id: organizationId, name: `Launch ${suffix}` } });
  const link = (type: 'document' | 'template', resourceId: number) =>
    apiRequest('POST', `/campaigns/campaign-resource/${inOrg}`, { token: admin.token, body: { campaign_id: campaign.campaign_id, resource_id: resourceId, type } });
  await link('document', doc.document_id);
  await link('template', template.template_id);
  const group = await apiRequest<{ group_id: number }>('POST', `/groups${inOrg}`, { token: admin.token, body: { name: `Writers ${suffix}`, organization_id: organizationId } });
  await apiRequest('POST', `/groups/users/${memberId}/${group.group_id}${inOrg}`, { token: admin.token });
  await apiRequest('POST', `/campaigns/give-access/${campaign.campaign_id}${inOrg}`, { token: admin.token, body: { group_id: group.group_id } });

  // The Member's own avatar in the organization (avatars ask for the user's AI key first, spec part 1 §1).
  await apiRequest('PUT', '/users/ai-key', { token: member.token, body: { api_key: `sk-proj-campaign-doc-${lang}-0123456789` } });
  await apiRequest('POST', `/avatars${inOrg}`, { token: member.token, body: { name: s.avatar, context: 'A friendly running coach who writes short, warm notes.', organization_id: organizationId } });

  // 1. The Member opens the campaign document from the campaign page: read-only, with 'Generate Document'.
  const page = await openPage({ locale });
  await signIn(page, lang, member.email, member.password);
  await pickOrganization(page, organizationName);
  await page.goto(`/organization/campaigns/${campaign.campaign_id}`);
  await page.getByTestId('resource-card').filter({ hasText: documentName }).getByTestId('resource-link').click();
  await page.waitForURL(new RegExp(`/campaign/${campaign.campaign_id}/documents/${doc.document_id}$`));
  await page.getByTestId('campaign-document-html').getByText(s.text).waitFor();
  await expectNoSeriousA11yViolations(page, `campaign document page (${lang})`);

  // 2. The two-step modal: the campaign's template and its field, Next; the avatar, Generate.
  await page.getByTestId('campaign-document-generate').getByText(d.campaignDocument.generateDocument).click();
  const modal = page.getByTestId('generate-document-modal');
  await page.getByTestId('generate-document-template').click();
  await page.getByRole('option', { name: templateName, exact: true }).click();
  await page.getByTestId('generate-document-field').fill(s.topic);
  await page.getByTestId('generate-document-next').click();
  await page.getByTestId('generate-document-avatar').click();
  await page.getByRole('option', { name: s.avatar, exact: true }).click();
  // The modal as the user sees it before Generate: the button enabled by the avatar just chosen.
  await expect.poll(() => page.getByTestId('generate-document-generate').isEnabled()).toBe(true);
  await expectNoSeriousA11yViolations(page, `generate document modal (${lang})`);
  await page.getByTestId('generate-document-generate').click();
  await expect.poll(() => modal.locator('*').count()).toBe(0);

  // 3. The edit view: an unsaved copy under the read-only notice; the answer streams in.
  await page.getByTestId('campaign-document-read-only').getByText(d.campaignDocument.readOnly).waitFor();
  const generating = page.getByTestId('campaign-document-generating');
  await generating.waitFor({ timeout: 15_000 });
  const before = await editorText(page);
  await expect.poll(async () => (await editorText(page)) !== before && (await generating.isVisible()), { timeout: 15_000 }).toBe(true);
  await generating.waitFor({ state: 'detached', timeout: 30_000 });
  const written = await editorText(page);
  expect(written).toContain(s.text);
  expect(written.length).toBeGreaterThan(s.text.length + 40);

  // 4. Save as my document: their own Personal document, opened in the editor with every word.
  await page.getByTestId('campaign-document-save-as-mine').click();
  await page.waitForURL(/\/documents\/\d+$/, { timeout: 15_000 });
  await expect.poll(() => page.getByTestId('document-name').inputValue(), { timeout: 15_000 }).toBe(documentName);
  const lastLine = written.trim().split('\n').at(-1)!;
  await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain(lastLine);
  expect(await editorText(page)).toContain(s.text);
  // The campaign's document is unchanged.
  const original = await apiRequest<{ content: string }>('GET', `/documents/${doc.document_id}/campaigns/${campaign.campaign_id}${inOrg}`, { token: admin.token });
  expect(original.content).toBe(`<p>${s.text}</p>`);
}

describe('campaign document journey', () => {
  test('[EN] a group Member generates into a campaign document with the two-step modal and saves it as their own', async ({ openPage }) => journey(openPage, 'en'));
  test('[ES] a group Member generates into a campaign document with the two-step modal and saves it as their own', async ({ openPage }) => journey(openPage, 'es'));
});
