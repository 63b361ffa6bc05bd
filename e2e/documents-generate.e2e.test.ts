// Documents generation journeys (issue 15 acceptance: "write a document, generate into it with a prompt and
// with an avatar, reload (nothing lost), export to Word and read the .docx back"; spec part 2 §2 "Documents
// and editor"), in English and Spanish, in the real BlockNote editor against the Demo model: a new document
// is neutral until its first save; the Prompt section's answer streams in (text appears while the header
// still says '{app} is looking for an answer...') and arrives with its heading, list, table and code block;
// the Avatars section's avatar becomes the document's voice ('Your tone and style') and its answer comes
// back with the document as context — `[echo]` makes the emulated model answer with what it received, so
// the document's text and the spec's 'Use the above text…' instruction show, and its ~~strikethrough~~
// comes through; a reload keeps every word and offers nothing again; the Word file is read back. Last, a
// reload while an answer is being written: the answer is resumed and ends in the document once; then Esc stops
// another one part-way (issue 30 item 1): 'Stopped', its text kept, the tools' Generate back.
import { DOCUMENT_CONTEXT_INSTRUCTION, DOCUMENT_FIRST_HEADING } from '@pluma/common/documents';
import { composeAnswer, stripDirectives } from '@pluma/emulators/answer';
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import docEn from '../web/src/i18n/documents.en.json';
import docEs from '../web/src/i18n/documents.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { apiRequest } from './src/api';
import { caretAtEnd, docxXml, editorText } from './src/documents-steps';
import { expect, test } from './src/fixtures';
import { signIn, userWithAccess, type UiLang } from './src/journey-steps';

const docTexts = { en: docEn, es: docEs } as const;
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');

/** `[rate:20]` paces the Demo model at 20 words a second, so the answer is seen arriving. */
const SCRIPT = {
  en: {
    name: 'Spring launch',
    typed: 'Our trail shoes reach Madrid in spring.',
    instruction: '[rate:20] Write a launch plan for the shoes',
    avatar: { name: 'Coach Rita', context: 'A friendly running coach who writes short, warm notes.' },
    message: '[echo] Make it ~~longer~~ warmer',
    slow: '[rate:8] [words:60] Summarise the plan for the runners',
  },
  es: {
    name: 'Lanzamiento de primavera',
    typed: 'Nuestras zapatillas de montaña llegan a Madrid en primavera.',
    instruction: '[rate:20] Escribe un plan de lanzamiento para las zapatillas',
    avatar: { name: 'Entrenadora Rita', context: 'Una entrenadora de running cercana que escribe notas breves.' },
    message: '[echo] Hazlo ~~más largo~~ más cálido',
    slow: '[rate:8] [words:60] Resume el plan para los corredores',
  },
} as const;

const saveState = (page: Page) => page.getByTestId('document-save-state').getAttribute('data-state');

async function generateJourney(page: Page, lang: UiLang) {
  const t = docTexts[lang];
  const s = SCRIPT[lang];
  const user = await userWithAccess(`docgen-${lang}`, lang);
  // An avatar of their own (POST /api/avatars asks for the user's own AI key first, spec part 1 §1).
  await apiRequest('PUT', '/users/ai-key', { token: user.token, body: { api_key: `sk-proj-docgen-journey-${lang}-0123456789` } });
  await apiRequest('POST', '/avatars', { token: user.token, body: s.avatar });
  await signIn(page, lang, user.email, user.password);

  // Write a document: neutral until the first save creates it.
  await page.goto('/documents/new');
  const heading = page.locator('.bn-editor [data-content-type="heading"]').first();
  // 'Start writing here!' is the empty heading's placeholder, not its text (issue 30 item 6).
  await expect.poll(() => heading.evaluate((el) => getComputedStyle(el, '::after').content)).toBe(JSON.stringify(DOCUMENT_FIRST_HEADING[lang]));
  expect((await heading.innerText()).trim()).toBe('');
  expect(await saveState(page)).toBe('new');
  await page.getByTestId('document-save-state').getByText(t.state.new).waitFor();
  await page.getByTestId('document-name').fill(s.name);
  await caretAtEnd(page, heading);
  await page.keyboard.type(s.name);
  await page.keyboard.press('Enter');
  await page.keyboard.type(s.typed);
  await page.waitForURL(/\/documents\/\d+$/, { timeout: 15_000 });
  await expect.poll(() => saveState(page), { timeout: 15_000 }).toBe('saved');
  const url = page.url();

  // Prompt: the answer streams in under '{app} is looking for an answer...', then is saved.
  await page.getByTestId('document-tools-toggle').click();
  const tools = page.getByTestId('document-tools');
  await tools.getByPlaceholder(t.tools.instruction).fill(s.instruction);
  const before = await editorText(page);
  await tools.getByTestId('document-prompt-generate').click();
  const generating = page.getByTestId('document-generating');
  await generating.waitFor();
  expect(await generating.innerText()).toContain(fill(t.editor.generating, { app: '' }).trim());
  // While it runs, the tools offer Stop instead of Generate/Send.
  await tools.getByTestId('document-avatar-stop').waitFor();
  expect(await tools.getByTestId('document-prompt-stop').innerText()).toBe(t.generation.stop);
  await expect.poll(async () => (await editorText(page)) !== before && (await generating.isVisible()), { timeout: 15_000 }).toBe(true);
  await generating.waitFor({ state: 'detached', timeout: 30_000 });
  for (const type of ['heading', 'bulletListItem', 'table', 'codeBlock']) {
    await expect.poll(() => page.locator(`.bn-editor [data-content-type="${type}"]`).count()).toBeGreaterThan(type === 'heading' ? 1 : 0);
  }
  expect(await editorText(page)).toContain(s.typed);
  await expect.poll(() => saveState(page), { timeout: 15_000 }).toBe('saved');

  // Avatars: the picked avatar is the document's voice; its answer has the document as context.
  await tools.getByTestId('document-avatar-select').click();
  await page.getByRole('option', { name: s.avatar.name }).click();
  await page.getByTestId('document-voice').getByText(fill(t.header.voice, { name: s.avatar.name })).waitFor();
  await tools.getByPlaceholder(t.tools.avatarMessage).fill(s.message);
  await tools.getByTestId('document-avatar-send').click();
  // The answer's end, not the state in between (docs/testing.md): unpaced, the echo can be written before
  // the "generating" mark is seen (CI run of 2026-11-29).
  await expect.poll(() => editorText(page), { timeout: 30_000 }).toContain(DOCUMENT_CONTEXT_INSTRUCTION);
  await generating.waitFor({ state: 'detached', timeout: 30_000 });
  const written = await editorText(page);
  expect(written).toContain(s.avatar.context);
  expect(await page.locator('.bn-editor s').first().innerText()).toBe(s.message.match(/~~(.+?)~~/)![1]);
  await expect.poll(() => saveState(page), { timeout: 15_000 }).toBe('saved');
  await expectNoSeriousA11yViolations(page, `document editor with its tools (${lang})`);

  // Reload: every word is there, and nothing is offered again (both were applied).
  await page.reload();
  await page.waitForURL(url);
  await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain(DOCUMENT_CONTEXT_INSTRUCTION);
  const reloaded = await editorText(page);
  for (const text of [s.typed, s.avatar.context, written.split('\n').find((line) => line.includes(DOCUMENT_CONTEXT_INSTRUCTION))!]) expect(reloaded).toContain(text);
  expect(await page.locator('.bn-editor [data-content-type="table"]').count()).toBeGreaterThan(0);
  expect(await page.getByTestId('document-generation-away').count()).toBe(0);

  // Word, read back: the typed words, the generated table and the avatar's struck-through word.
  await page.getByTestId('document-tools-toggle').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('document-download-word').click()]);
  expect(download.suggestedFilename()).toBe(`${s.name}.docx`);
  const xml = await docxXml(download);
  for (const text of [s.name, s.typed, DOCUMENT_CONTEXT_INSTRUCTION]) expect(xml).toContain(text);
  expect(xml).not.toContain(DOCUMENT_FIRST_HEADING[lang]);
  expect(xml).toContain('<w:tbl>');
  expect(xml).toContain('<w:strike/>');

  // A reload while an answer is being written (without the document as context, so the Demo model's answer is
  // known): it is resumed after the reload and ends in the document exactly once.
  const answer = composeAnswer(s.slow, 60);
  const title = stripDirectives(s.slow);
  const lastWords = answer.split(' ').slice(-4).join(' ');
  await tools.getByTestId('document-context').uncheck();
  await tools.getByPlaceholder(t.tools.instruction).fill(s.slow);
  await tools.getByTestId('document-prompt-generate').click();
  await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain(title);
  expect(await generating.isVisible()).toBe(true);
  await page.reload();
  await page.waitForURL(url);
  await page.getByTestId('document-generating').waitFor({ timeout: 15_000 });
  await page.getByTestId('document-generating').waitFor({ state: 'detached', timeout: 30_000 });
  await expect.poll(() => editorText(page)).toContain(lastWords);
  const final = await editorText(page);
  expect(final.split(title).length - 1).toBe(1);
  expect(final.split(lastWords).length - 1).toBe(1);
  expect(final).toContain(s.typed);
  await expect.poll(() => saveState(page), { timeout: 15_000 }).toBe('saved');
  expect(await page.getByTestId('document-generation-away').count()).toBe(0);

  // Esc stops the next one part-way: 'Stopped', the words so far kept once, Generate offered again.
  await page.getByTestId('document-tools-toggle').click();
  await tools.getByTestId('document-context').uncheck();
  await tools.getByPlaceholder(t.tools.instruction).fill(s.slow);
  await tools.getByTestId('document-prompt-generate').click();
  await expect.poll(async () => (await editorText(page)).split(title).length - 1, { timeout: 15_000 }).toBe(2);
  await page.keyboard.press('Escape');
  await page.getByText(t.generation.stopped).waitFor();
  await page.getByTestId('document-generating').waitFor({ state: 'detached' });
  await tools.getByTestId('document-prompt-generate').waitFor();
  const stopped = await editorText(page);
  expect(stopped.split(lastWords).length - 1).toBe(1);
  await expect.poll(() => saveState(page), { timeout: 15_000 }).toBe('saved');
}

describe('documents generation', () => {
  test('[DOCUMENTS] generate into a document with a prompt and an avatar, streamed; reload, also mid-answer; Word read back (English)', async ({ openPage }) => {
    const page = await openPage();
    await generateJourney(page, 'en');
  });

  test('[DOCUMENTS] generate into a document with a prompt and an avatar, streamed; reload, also mid-answer; Word read back (Spanish)', async ({ openPage }) => {
    const page = await openPage({ locale: 'es-ES' });
    await page.addInitScript(() => localStorage.setItem('lang', 'es'));
    await generateJourney(page, 'es');
  });
});
