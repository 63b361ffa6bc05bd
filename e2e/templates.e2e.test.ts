// Templates journeys (issue 14 "Acceptance": create a template with text, number and select fields, apply it
// and get an answer; apply it with an avatar; spec part 2 §2 "Templates", §5 "Template save" and "Applying a
// template"), in English and Spanish: a user with access opens the Templates tab, is told what a save is
// missing, writes a prompt whose fields appear as they are typed (text, number, select — Spanish names with
// accents and ñ), saves it, applies it from its card (Generate waits for every field), and gets the Demo
// model's answer in the chat beside the form; then applies it with an avatar of their own
// (/templates/apply-avatar/{id}/{avatar_id}). `[echo]` in a field's value makes the emulated model answer
// with the transcript it received, so the answer shows the filled prompt and the avatar's system prompt.
import { translate } from '@pluma/common/messages';
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import templatesEn from '../web/src/i18n/templates.en.json';
import templatesEs from '../web/src/i18n/templates.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { label, signIn, texts, userWithAccess, type ChatUser, type UiLang } from './src/journey-steps';

const templateTexts = { en: templatesEn, es: templatesEs } as const;
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
const answers = (page: Page) => page.getByTestId('apply-chat').locator('[data-testid="message"][data-role="assistant"]');

/** What each language's journey writes: the prompt, its fields as the editor lists them, and the values. */
const script = {
  en: {
    name: 'Garden post',
    description: 'A short post for the garden club',
    prompt: 'Write a [Tone: formal/casual/] post of [#Words] words about [Topic].',
    fields: [
      { label: 'Tone', type: 'select', options: ['formal', 'casual'] },
      { label: 'Words', type: 'number', options: [] },
      { label: 'Topic', type: 'text', options: [] },
    ],
    values: { Tone: 'casual', Words: '150', Topic: 'spring bulbs' },
    filled: 'Write a casual post of 150 words about spring bulbs.',
    avatar: { name: 'Captain Quill', context: 'A retired sailor who writes about gardens with sea metaphors.' },
  },
  es: {
    name: 'Publicación de jardín',
    description: 'Una publicación corta para el club de jardinería',
    prompt: 'Escribe una publicación [Tono: formal/cariñoso/] de [#Palabras] palabras sobre [Temática].',
    fields: [
      { label: 'Tono', type: 'select', options: ['formal', 'cariñoso'] },
      { label: 'Palabras', type: 'number', options: [] },
      { label: 'Temática', type: 'text', options: [] },
    ],
    values: { Tono: 'cariñoso', Palabras: '150', Temática: 'bulbos de primavera' },
    filled: 'Escribe una publicación cariñoso de 150 palabras sobre bulbos de primavera.',
    avatar: { name: 'Capitana Pluma', context: 'Una marinera jubilada que escribe sobre jardines con metáforas del mar.' },
  },
} as const;

/** The user's own avatar (POST /api/avatars asks for the user's own AI key first, spec part 1 §1). */
async function ownAvatar(user: ChatUser, avatar: { name: string; context: string }): Promise<number> {
  await apiRequest('PUT', '/users/ai-key', { token: user.token, body: { api_key: 'sk-proj-templates-journey-0123456789' } });
  const created = await apiRequest<{ avatar_id: number }>('POST', '/avatars', { token: user.token, body: { name: avatar.name, context: avatar.context } });
  return created.avatar_id;
}

/** Fills the apply form by the fields' labels (a select is a dropdown, a number a number input). */
async function fillApplyForm(page: Page, lang: UiLang, options: { echo: boolean }) {
  const t = templateTexts[lang];
  const s = script[lang];
  const form = page.getByTestId('apply-form');
  const generate = form.getByRole('button', { name: t.apply.generate });
  await form.waitFor();
  // Fields by order: the select, the number, then the text.
  expect(await form.getByTestId('apply-field').evaluateAll((inputs) => inputs.map((input) => input.tagName))).toEqual(['SELECT', 'INPUT', 'INPUT']);
  expect(await generate.isDisabled()).toBe(true);
  const [tone, words, topic] = s.fields.map((field) => form.getByLabel(label(field.label)));
  await tone.selectOption(s.values[s.fields[0].label as keyof typeof s.values]);
  await words.fill(s.values[s.fields[1].label as keyof typeof s.values]);
  expect(await words.getAttribute('inputmode')).toMatch(/^(numeric|decimal)$/);
  // Generate waits for every field.
  expect(await generate.isDisabled()).toBe(true);
  const topicValue = s.values[s.fields[2].label as keyof typeof s.values];
  await topic.fill(options.echo ? `[echo] [rate:0] ${topicValue}` : topicValue);
  await expect.poll(() => generate.isEnabled()).toBe(true);
  return generate;
}

async function templatesJourney(page: Page, lang: UiLang) {
  const t = templateTexts[lang];
  const s = script[lang];
  const user = await userWithAccess(`templates-${lang}`, lang);
  await signIn(page, lang, user.email, user.password);

  // The Templates tab: the browser (the seeded public library is there), then New template.
  await page.getByTestId('app-sidebar').getByRole('link', { name: texts[lang].breadcrumbs.templates }).click();
  await page.waitForURL(/\/templates$/);
  await page.getByTestId('template-card').first().waitFor();
  await expectNoSeriousA11yViolations(page, `templates (${lang})`);
  await page.getByRole('link', { name: t.list.new }).click();
  await page.waitForURL(/\/templates\/create-template$/);

  // Saving an empty template says what is missing (spec part 2 §5).
  const editor = page.getByTestId('template-editor');
  await editor.getByRole('button', { name: t.editor.save, exact: true }).click();
  await expect.poll(() => editor.getByRole('alert').filter({ hasText: translate(lang, 'template_required_fields') }).count()).toBe(1);

  // The fields are regenerated from the prompt as it is typed.
  const name = `${s.name} ${Date.now().toString(36)}`;
  await editor.getByLabel(label(t.editor.name)).fill(name);
  await editor.getByLabel(label(t.editor.descriptionLabel)).fill(s.description);
  const prompt = editor.getByLabel(label(t.editor.prompt));
  await prompt.fill('Write about [Topic');
  await expect.poll(() => editor.getByTestId('no-fields').textContent()).toBe(t.editor.noFields);
  await prompt.fill(s.prompt);
  const fields = editor.getByTestId('template-field');
  await expect.poll(() => fields.getByTestId('field-label').allTextContents()).toEqual(s.fields.map((field) => field.label));
  expect(await fields.getByTestId('field-type').allTextContents()).toEqual(s.fields.map((field) => t.fieldType[field.type]));
  expect(await fields.first().textContent()).toContain(s.fields[0].options.join(''));
  await editor.getByTestId('template-language').getByText(lang === 'en' ? t.editor.english : t.editor.spanish, { exact: true }).click();
  await expectNoSeriousA11yViolations(page, `template editor (${lang})`);
  await editor.getByRole('button', { name: t.editor.save, exact: true }).click();

  // Back on the list with the new template's card; Apply opens the apply screen for a new conversation.
  await page.waitForURL(/\/templates$/);
  const card = page.getByRole('article', { name });
  await card.waitFor();
  expect(await card.textContent()).toContain(s.description);
  await card.getByRole('link', { name: fill(t.card.applyNamed, { name }) }).click();
  await page.waitForURL(/\/templates\/apply-template\/\d+\/new$/);
  const templateId = Number(new URL(page.url()).pathname.split('/').at(-2));
  await page.getByRole('heading', { name: fill(t.apply.title, { name }) }).waitFor();

  // Fill in the fields: the preview shows the filled prompt; Generate sends it and the answer streams in
  // beside the form (1280 px wide: side by side), in a conversation the address now names.
  const generate = await fillApplyForm(page, lang, { echo: true });
  const topicValue = s.values[s.fields[2].label as keyof typeof s.values];
  await expect.poll(() => page.getByTestId('apply-preview').textContent()).toContain(s.filled.replace(topicValue, `[echo] [rate:0] ${topicValue}`));
  await generate.click();
  await page.waitForURL(new RegExp(`/templates/apply-template/${templateId}/\\d+$`));
  await page.getByTestId('apply-side-by-side').waitFor();
  const answer = answers(page).last();
  await page.getByTestId('apply-chat').locator('[data-testid="message"][data-role="assistant"][data-status="done"]').waitFor({ timeout: 30_000 });
  const answerText = await answer.getByTestId('message-content').innerText();
  expect(answerText).toContain(s.filled);
  await expectNoSeriousA11yViolations(page, `apply template (${lang})`);

  // Apply it with an avatar: the avatar answers (its name and context are the model's system prompt).
  const avatarId = await ownAvatar(user, s.avatar);
  await page.goto(`/templates/apply-avatar/${templateId}/${avatarId}`);
  await page.getByText(fill(t.apply.withAvatar, { name: s.avatar.name })).waitFor();
  await expect.poll(() => page.getByTestId('apply-chat-placeholder').textContent()).toBe(t.apply.chatPlaceholder);
  const generateWithAvatar = await fillApplyForm(page, lang, { echo: true });
  await generateWithAvatar.click();
  await page.getByTestId('apply-chat').locator('[data-testid="message"][data-role="assistant"][data-status="done"]').waitFor({ timeout: 30_000 });
  const avatarAnswer = await answers(page).last().getByTestId('message-content').innerText();
  expect(avatarAnswer).toContain(`You are ${s.avatar.name}.`);
  expect(avatarAnswer).toContain(s.avatar.context);
  expect(avatarAnswer).toContain(s.filled);
  expect(page.url()).toMatch(new RegExp(`/templates/apply-avatar/${templateId}/${avatarId}$`));
}

describe('templates', () => {
  test('[TEMPLATES] create a template with text, number and select fields, apply it, then apply it with an avatar (English)', async ({ openPage }) => {
    const page = await openPage();
    await templatesJourney(page, 'en');
  });

  test('[TEMPLATES] create a template with text, number and select fields, apply it, then apply it with an avatar (Spanish)', async ({ openPage }) => {
    const page = await openPage({ locale: 'es-ES' });
    await page.addInitScript(() => localStorage.setItem('lang', 'es'));
    await templatesJourney(page, 'es');
  });
});
