// Avatars journey (issue 13 "Acceptance"; spec part 2 §2 "Avatars and trainings", "Conversations"; part 1
// §1 own API key), in English and Spanish: a user with access adds their own API key in Settings (masked,
// tested), creates an avatar with a context and uploads a PDF (indexed in the background until "Ready"),
// chats with the avatar from its page (greeted with 'Hola'; the answer cites the PDF's passage: file, page,
// the passage on click), clones it (context and file copied), the admin makes it public and another user finds it in
// the community list; the owner starts a training, watches its progress to the finished model and uses it; a
// message with a personality block becomes a new avatar whose context is the block. Issue 30: before the key,
// creating an avatar says in the modal that the key is needed (link to Settings); a key the provider refuses is
// not saved and says why; a blank editable .txt is made and written on the avatar's page.
// The journey runs its own server wired to an OpenAI emulator in this process (OPENAI_BASE_URL): the
// user's key is the only one it accepts, so the key test and the fine-tuning job (files upload, job with
// progress over time, 4 s by default) prove they run on the user's own key. Without an operator key the
// chat's answers come from the Demo model (the in-process emulator): `[echo]` answers with the transcript
// received, which carries the prompt's personality block into the answer.
import { startOpenAiEmulator } from '@pluma/emulators/openai';
import type { RunningEmulator } from '@pluma/emulators/http-kit';
import { translate } from '@pluma/common/messages';
import { TRAINING_COST_QUOTE } from '@pluma/common/trainings';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import avatarsEn from '../web/src/i18n/avatars.en.json';
import avatarsEs from '../web/src/i18n/avatars.es.json';
import chatEn from '../web/src/i18n/chat.en.json';
import chatEs from '../web/src/i18n/chat.es.json';
import trainingsEn from '../web/src/i18n/trainings.en.json';
import trainingsEs from '../web/src/i18n/trainings.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { adminLoginBody, apiRequestAt, type ApiOptions } from './src/api';
import { artifactsDir, expect, test } from './src/fixtures';
import { label, newcomer, signIn, texts, type UiLang } from './src/journey-steps';
import { textPdf } from './src/pdf-fixture';
import { E2E_ADMIN, startServer, type RunningServer } from './src/server-process';

const ui = {
  en: { main: texts.en, a: avatarsEn, c: chatEn, tr: trainingsEn, locale: 'en-US' },
  es: { main: texts.es, a: avatarsEs, c: chatEs, tr: trainingsEs, locale: 'es-ES' },
} as const;

const ADMIN = E2E_ADMIN;
/** The user's own OpenAI key: the emulator accepts no other. */
const USER_KEY = 'sk-e2e-avatars-0123456789abcdefWXYZ';

/** The distinctive passage of the PDF, the question that finds it by its words, and the file's name. */
const knowledge = {
  en: {
    file: 'port-quillan-notes.pdf',
    passage: 'The lighthouse keeper of Port Quillan polishes the brass lens every Thursday at dawn, before the fishing boats leave the harbour.',
    question: 'When does the lighthouse keeper of Port Quillan polish the brass lens?',
    filler: (n: number) =>
      `Chapter ${n} of these notes is about the village gardens and the people who look after them. ` +
      'Every spring the neighbours plant tomatoes, beans and lettuce in long rows behind the school, and they water them in the evening when the sun is low. ' +
      'The children help to carry the watering cans and learn the names of the plants, while the older gardeners share seeds and stories about the weather of past years. ' +
      'In summer the harvest is shared at the market on Saturday morning, and whatever is left goes to the kitchen of the community hall, where it is cooked for everyone. ' +
      'When autumn comes the beds are covered with straw and fallen leaves, the tools are cleaned and oiled, and the gardeners meet once more to plan what they will grow next year.',
  },
  es: {
    file: 'notas-puerto-quillan.pdf',
    passage: 'El farero de Puerto Quillán pule la lente de latón cada jueves al amanecer, antes de que los barcos de pesca salgan del muelle.',
    question: '¿Cuándo pule el farero de Puerto Quillán la lente de latón?',
    filler: (n: number) =>
      `El capítulo ${n} de estas notas trata de los huertos del pueblo y de las personas que los cuidan. ` +
      'Cada primavera los vecinos siembran tomates, frijoles y lechugas en hileras largas detrás de la escuela, y las riegan por la tarde cuando el sol ya está bajo. ' +
      'Los niños ayudan a cargar las regaderas y aprenden los nombres de las plantas, mientras los hortelanos mayores comparten semillas e historias sobre el clima de otros años. ' +
      'En verano la cosecha se reparte en el mercado del sábado por la mañana, y lo que sobra va a la cocina del salón comunal, donde se cocina para todos. ' +
      'Cuando llega el otoño los bancales se cubren con paja y hojas secas, las herramientas se limpian y se aceitan, y los hortelanos se reúnen otra vez para decidir qué sembrarán el año que viene.',
  },
} as const;

/**
 * The PDF: the passage on page 2 among pages of other text. Each page is one passage of the training file
 * (over 700 characters, so no two are joined), and a training needs at least 10 of them.
 */
function knowledgePdf(lang: UiLang): Buffer {
  const k = knowledge[lang];
  const pages = Array.from({ length: 12 }, (_, i) => k.filler(i + 1));
  pages[1] = `${k.passage} ${k.filler(2)}`;
  return textPdf(pages);
}

/** i18next's {{name}} placeholders, filled in. */
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

let server: RunningServer;
let openai: RunningEmulator;
const api = <T>(method: string, pathname: string, options?: ApiOptions) => apiRequestAt<T>(server.baseUrl, method, pathname, options);

beforeAll(async () => {
  openai = await startOpenAiEmulator({ host: '127.0.0.1', port: 0, apiKey: USER_KEY });
  server = await startServer({
    env: { OPENAI_BASE_URL: openai.url },
    logFile: path.join(artifactsDir, 'server-avatars.log'),
    seededDataDir: inject('seededDataDir'),
  });
});

afterAll(async () => {
  await server?.stop();
  await openai?.close();
});

/** Signs a user up in `lang` and gives them access with an unlimited plan, as the admin. */
async function userWithAccess(tag: string, lang: UiLang) {
  const user = newcomer(tag);
  const { token, user: created } = await api<{ token: string; user: { user_id: number } }>('POST', '/auth/signup', { body: { ...user, lang } });
  const admin = await api<{ token: string }>('POST', '/auth/login', { body: adminLoginBody() });
  const products = await api<{ product_id: number; word_amount: number | null }[]>('GET', '/products/available');
  const plan = products.find((p) => p.word_amount === null) ?? products[0];
  await api('POST', '/users/giveAccess', { token: admin.token, body: { user_id: created.user_id, product_id: plan.product_id, gift: true } });
  return { ...user, token };
}

/** A page of this journey's server, in `lang` (the browser's language and the app's stored choice). */
async function pageIn(openPage: (options?: object) => Promise<Page>, lang: UiLang): Promise<Page> {
  const page = await openPage({ baseURL: server.baseUrl, locale: ui[lang].locale });
  if (lang === 'es') await page.addInitScript(() => localStorage.setItem('lang', 'es'));
  return page;
}

const avatarIdOf = (page: Page) => Number(/\/avatars\/(\d+)/.exec(new URL(page.url()).pathname)?.[1]);

async function createConversation(page: Page, lang: UiLang, name: string) {
  const { c } = ui[lang];
  await page.goto('/conversations');
  await page.getByRole('button', { name: c.list.new }).first().click();
  const dialog = page.getByRole('dialog', { name: c.form.newTitle });
  await dialog.getByLabel(label(c.form.name)).fill(name);
  await dialog.getByRole('button', { name: c.actions.create }).click();
  await page.waitForURL(/\/conversations\/\d+$/);
}

async function sendPrompt(page: Page, lang: UiLang, prompt: string) {
  const input = page.getByRole('textbox', { name: ui[lang].c.prompt.label, exact: true });
  await input.fill(prompt);
  await input.press('Enter');
  await expect.poll(() => input.inputValue()).toBe('');
}

/** The n-th answer (0-based) once it has finished. */
async function finishedAnswer(page: Page, n: number) {
  const answer = page.locator('[data-testid="message"][data-role="assistant"]').nth(n);
  await expect.poll(() => answer.getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
  return answer;
}

async function journey(openPage: (options?: object) => Promise<Page>, lang: UiLang) {
  const { main, a, c, tr } = ui[lang];
  const k = knowledge[lang];
  const suffix = Date.now().toString(36);
  const avatarName = lang === 'en' ? `Harbour guide ${suffix}` : `Guía del puerto ${suffix}`;
  const context =
    lang === 'en'
      ? 'You are a friendly harbour guide who answers from the village notes and names the page you used.'
      : 'Eres una guía amable del puerto que responde con las notas del pueblo y nombra la página que usó.';
  const user = await userWithAccess(`avatars-${lang}`, lang);
  const page = await pageIn(openPage, lang);
  await signIn(page, lang, user.email, user.password);

  // 0. Without a key, creating an avatar says so in the modal, with the way to Settings (issue 30 item 3).
  await page.goto('/avatars');
  await page.getByRole('heading', { name: a.list.title, level: 1 }).waitFor();
  await page.getByRole('button', { name: a.list.add }).click();
  const noKeyForm = page.getByRole('dialog', { name: a.form.createTitle });
  await noKeyForm.getByLabel(label(a.form.name)).fill(avatarName);
  await noKeyForm.getByLabel(label(a.form.context)).fill(context);
  await noKeyForm.getByRole('button', { name: a.form.create, exact: true }).click();
  const keyPrompt = noKeyForm.getByRole('alert').filter({ hasText: a.key.title });
  await keyPrompt.getByText(a.key.required).waitFor();
  await keyPrompt.getByRole('link', { name: a.key.addInSettings }).click();
  await page.waitForURL(/\/settings$/);

  // 1. Settings: the own API key — one the provider refuses is not saved and says why; the right one is saved
  // (shown masked to its last 4) and tested against the provider.
  const keyCard = page.getByTestId('ai-key-card');
  await keyCard.getByRole('heading', { name: main.settings.aiKey.title }).waitFor();
  await keyCard.getByText(main.settings.aiKey.none).waitFor();
  await keyCard.getByLabel(label(main.settings.aiKey.label)).fill('sk-e2e-made-up-key-0123456789');
  await keyCard.getByRole('button', { name: main.settings.aiKey.save, exact: true }).click();
  await keyCard.getByText(translate(lang, 'ai_key_refused', { status: 401 })).waitFor();
  await keyCard.getByText(main.settings.aiKey.none).waitFor();
  await keyCard.getByLabel(label(main.settings.aiKey.label)).fill(USER_KEY);
  await keyCard.getByRole('button', { name: main.settings.aiKey.save, exact: true }).click();
  await keyCard.getByText(fill(main.settings.aiKey.current, { masked: `••••••••${USER_KEY.slice(-4)}` })).waitFor();
  expect(await keyCard.textContent()).not.toContain(USER_KEY);
  await keyCard.getByRole('button', { name: main.settings.aiKey.test, exact: true }).click();
  await keyCard.getByText(main.settings.aiKey.testOk).waitFor();

  // 2. The avatar: created from /avatars with its context; its page opens.
  await page.getByRole('link', { name: main.breadcrumbs.avatars }).first().click();
  await page.getByRole('heading', { name: a.list.title, level: 1 }).waitFor();
  await page.getByText(a.list.empty).waitFor();
  await page.getByRole('button', { name: a.list.add }).click();
  const form = page.getByRole('dialog', { name: a.form.createTitle });
  await form.getByLabel(label(a.form.name)).fill(avatarName);
  await form.getByLabel(label(a.form.context)).fill(context);
  await form.getByRole('button', { name: a.form.create, exact: true }).click();
  await page.waitForURL(/\/avatars\/\d+$/);
  const avatarId = avatarIdOf(page);
  await page.getByRole('heading', { name: avatarName, level: 1 }).waitFor();
  await page.getByTestId('context-card').getByText(context).waitFor();

  // 3. The PDF, uploaded from the files tab and indexed in the background: its row says so until "Ready".
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: a.files.upload }).click()]);
  await chooser.setFiles({ name: k.file, mimeType: 'application/pdf', buffer: knowledgePdf(lang) });
  await page.getByText(a.files.uploaded).waitFor();
  const fileRow = page.getByRole('row').filter({ hasText: k.file });
  await fileRow.getByText(a.files.index.ready, { exact: true }).waitFor({ timeout: 30_000 });
  // Checked once the upload's notice has gone: axe reads a fading notice's text as low contrast.
  await page.getByText(a.files.uploaded).waitFor({ state: 'detached' });
  await expectNoSeriousA11yViolations(page, `avatar page with an indexed file (${lang})`);

  // 3b. A blank editable .txt, made here and written in (issue 30 item 20).
  await page.getByRole('tab', { name: a.files.editableTab }).click();
  await page.getByRole('button', { name: a.files.newText }).click();
  const naming = page.getByRole('dialog', { name: a.files.newTextTitle });
  const textName = lang === 'en' ? 'Harbour hours' : 'Horario del puerto';
  await naming.getByLabel(label(a.files.newTextName)).fill(textName);
  await naming.getByRole('button', { name: a.files.newTextCreate }).click();
  const editor = page.getByRole('dialog', { name: fill(a.files.editTitle, { name: `${textName}.txt` }) });
  const textBox = editor.getByLabel(a.files.text);
  await expect.poll(() => textBox.isEnabled()).toBe(true);
  expect(await textBox.inputValue()).toBe('');
  await textBox.fill(lang === 'en' ? 'The harbour office opens at eight.' : 'La oficina del puerto abre a las ocho.');
  await editor.getByRole('button', { name: a.form.save, exact: true }).click();
  await editor.waitFor({ state: 'detached' });
  await page.getByRole('row').filter({ hasText: `${textName}.txt` }).waitFor();
  await page.getByRole('tab', { name: a.files.tab, exact: true }).click();

  // 4. Chat with the avatar from its page: a conversation it answers, greeted with 'Hola'; the answer to
  // the question cites the PDF's page 2, and the citation opens the passage.
  await page.getByRole('button', { name: a.page.chat }).click();
  await page.waitForURL(/\/conversations\/\d+$/);
  await expect.poll(() => page.getByLabel(c.avatar.label, { exact: true }).inputValue()).toBe(avatarName);
  await page.locator('[data-testid="message"][data-role="user"]').getByText('Hola', { exact: true }).waitFor();
  await finishedAnswer(page, 0);
  await sendPrompt(page, lang, k.question);
  const answer = await finishedAnswer(page, 1);
  const sources = answer.getByRole('list', { name: c.citations.label });
  const citationLabel = `${k.file} · ${fill(c.citations.page, { page: 2 })}`;
  await sources.getByRole('button', { name: citationLabel }).click();
  const passage = page.getByRole('dialog', { name: citationLabel });
  await passage.getByText(k.passage, { exact: false }).waitFor();
  await expectNoSeriousA11yViolations(page, `citation's passage (${lang})`);
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expectNoSeriousA11yViolations(page, `avatar conversation with citations (${lang})`);

  // 5. Clone: the copy (name required) opens with the same context and the PDF.
  await page.goto(`/avatars/${avatarId}`);
  await page.getByRole('heading', { name: avatarName, level: 1 }).waitFor();
  await page.getByRole('button', { name: a.page.clone, exact: true }).click();
  const cloneDialog = page.getByRole('dialog', { name: a.clone.title });
  await cloneDialog.getByText(a.clone.note).waitFor();
  const copyName = `${avatarName} (${lang === 'en' ? 'copy' : 'copia'})`;
  await cloneDialog.getByLabel(label(a.clone.name)).fill(copyName);
  await cloneDialog.getByRole('button', { name: a.clone.submit, exact: true }).click();
  await page.getByRole('heading', { name: copyName, level: 1 }).waitFor();
  expect(avatarIdOf(page)).not.toBe(avatarId);
  await page.getByTestId('context-card').getByText(context).waitFor();
  await page.getByRole('row').filter({ hasText: k.file }).waitFor();

  // 6. Public, as the admin; before it, another user does not find it in the community list, after it they do.
  const peer = await userWithAccess(`avatars-peer-${lang}`, lang);
  const admin = await api<{ token: string }>('POST', '/auth/login', { body: adminLoginBody() });
  await api('PUT', '/users', { token: admin.token, body: { lang } });
  const [peerPage, adminPage] = await Promise.all([pageIn(openPage, lang), pageIn(openPage, lang)]);
  await Promise.all([signIn(peerPage, lang, peer.email, peer.password), signIn(adminPage, lang, ADMIN.email, ADMIN.password)]);
  await peerPage.goto('/avatars?list=community');
  await peerPage.getByRole('heading', { name: a.list.title, level: 1 }).waitFor();
  await peerPage.getByTestId('avatars-loading').waitFor({ state: 'detached' });
  expect(await peerPage.getByTestId('avatar-card').filter({ hasText: avatarName }).count()).toBe(0);

  await adminPage.goto(`/avatars/${avatarId}`);
  await adminPage.getByRole('heading', { name: avatarName, level: 1 }).waitFor();
  const publicSwitch = adminPage.getByRole('switch', { name: a.page.public });
  expect(await publicSwitch.isChecked()).toBe(false);
  // The switch shows the saved value: it turns on once the server has answered (so a click, not check()).
  await publicSwitch.click();
  await adminPage.getByText(a.form.saved).waitFor();
  await expect.poll(() => publicSwitch.isChecked()).toBe(true);
  // The owner may not publish: the toggle is the admin's only.
  await page.goto(`/avatars/${avatarId}`);
  await page.getByRole('heading', { name: avatarName, level: 1 }).waitFor();
  expect(await page.getByRole('switch', { name: a.page.public }).count()).toBe(0);

  await peerPage.reload();
  const shared = peerPage.getByTestId('avatar-card').filter({ hasText: avatarName });
  await shared.waitFor();
  await shared.getByText(a.list.public, { exact: true }).waitFor();
  await shared.getByText(fill(a.list.by, { name: `${user.name} ${user.last_name}` })).waitFor();

  // 7. A training on the avatar's own files: the cost note before it starts, then its progress, live, to
  // the finished model (the emulator's job takes about 4 s; the server polls it every 5 s).
  const trainings = page.getByTestId('trainings-panel');
  const trainingName = lang === 'en' ? 'First run' : 'Primera versión';
  await trainings.getByRole('heading', { name: tr.title }).waitFor();
  await trainings.getByText(tr.empty).waitFor();
  await trainings.getByLabel(label(tr.name)).fill(trainingName);
  await trainings.getByRole('button', { name: tr.create }).click();
  const training = trainings.getByTestId(/^training-\d+$/).filter({ hasText: trainingName });
  await training.getByText(tr.status.draft, { exact: true }).waitFor();
  await training.getByRole('button', { name: tr.execute }).click();
  const costNote = page.getByRole('dialog', { name: tr.executeTitle });
  const quote = TRAINING_COST_QUOTE[lang];
  await costNote.getByText(fill(tr.costNote, { min: quote.min, max: quote.max })).waitFor();
  await costNote.getByRole('button', { name: tr.execute }).click();
  await costNote.waitFor({ state: 'detached' });
  // At 0 % the bar's section has no width (hidden to Playwright): attached is what shows the progress started.
  await training.getByRole('progressbar').first().waitFor({ state: 'attached' });
  await training.getByText(tr.status.succeeded, { exact: true }).waitFor({ timeout: 40_000 });
  await training.getByText(/ft:gpt-4o-mini-2024-07-18:pluma-emulator:/).waitFor();
  expect(await training.getByRole('progressbar').count()).toBe(0);
  // The finished model becomes the avatar's: in use until the owner stops using it.
  await training.getByRole('button', { name: tr.select }).click();
  await training.getByText(tr.inUse, { exact: true }).waitFor();
  await training.getByRole('button', { name: tr.unselect }).waitFor();

  // 8. Convert to Avatar: an answer holding a personality block (echoed from the prompt) makes a new avatar
  // whose context is the block.
  const personality =
    lang === 'en'
      ? 'You are Marina, a patient mountain guide who explains every trail with humour.'
      : 'Eres Marina, una guía de montaña paciente que explica cada ruta con humor.';
  await createConversation(page, lang, lang === 'en' ? 'Personalities' : 'Personalidades');
  await sendPrompt(page, lang, `[echo] INICIO DE PERSONALIDAD ${personality} FIN DE PERSONALIDAD`);
  const echoed = await finishedAnswer(page, 0);
  await echoed.getByRole('button', { name: c.convert.button }).click();
  const convert = page.getByRole('dialog', { name: c.convert.title });
  expect(await convert.getByLabel(label(c.convert.context)).inputValue()).toBe(personality);
  const convertedName = `Marina ${suffix}`;
  await convert.getByLabel(label(c.convert.name)).fill(convertedName);
  await convert.getByRole('button', { name: c.convert.submit }).click();
  await page.waitForURL(/\/avatars\/\d+$/);
  await page.getByRole('heading', { name: convertedName, level: 1 }).waitFor();
  expect(await page.getByTestId('context-card').getByTestId('context-text').innerText()).toBe(personality);
  // The user now has three avatars: the first, its copy and Marina.
  await page.getByRole('link', { name: main.breadcrumbs.avatars }).first().click();
  await expect.poll(() => page.getByTestId('avatar-card').count()).toBe(3);
}

describe('avatars', () => {
  for (const lang of ['en', 'es'] as const) {
    test(`[AVATARS] ${lang.toUpperCase()}: own API key, an avatar with context and a PDF, a chat whose answer cites the PDF's passage, clone, made public by the admin and found by another user, a training watched to its model, Convert to Avatar from a personality block`, async ({
      openPage,
    }) => {
      await journey(openPage, lang);
    });
  }
});
