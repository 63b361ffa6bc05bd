// Screenshots for the README: the landing and the signed-in shell, at 1280 px and 390 px, in English
// and Spanish (8 PNGs in docs/screenshots/), then the screens issue 30 changed (SCREENS below, the same
// four variants each, named <screen>-<lang>-<width>.png). Rerunnable: builds when server/dist or web/dist is missing
// or older than the sources, starts the built server on a temporary DATA_DIR (PGlite) with a known admin,
// and drives Debian's Chromium. Usage: node scripts/screenshots.mjs [--build]
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { register } from 'tsx/esm/api';
import { buildIfNeeded } from './build-if-needed.mjs';

// The journeys' TypeScript helpers (server process, Chromium options) are reused through tsx.
register();
const { repoRoot, startServer } = await import('../e2e/src/server-process.ts');
const { CHROMIUM_PATH, launchOptions } = await import('../e2e/src/browser-options.ts');

const OUT_DIR = path.join(repoRoot, 'docs', 'screenshots');
const ADMIN = { email: 'admin@screenshots.pluma.test', password: 'screenshots-Admin-123' };
const WIDTHS = [
  { name: '1280', viewport: { width: 1280, height: 800 }, isMobile: false },
  { name: '390', viewport: { width: 390, height: 844 }, isMobile: true },
];
const LANGS = [
  { lang: 'en', locale: 'en-US', landingPath: '/' },
  { lang: 'es', locale: 'es-ES', landingPath: '/latam' },
];


async function api(baseUrl, method, apiPath, { token, body } = {}) {
  const response = await fetch(`${baseUrl}/api${apiPath}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${apiPath} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Signs in through the login screen, as a visitor would. */
async function signIn(page, who = ADMIN) {
  await page.goto('/auth/login');
  await page.locator('input[type="email"], input[name="email"]').first().fill(who.email);
  await page.locator('input[type="password"]').first().fill(who.password);
  await page.locator('form button[type="submit"]').first().click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth'), { timeout: 30_000 });
}

async function settle(page) {
  await page.waitForLoadState('networkidle');
  // Fonts, images and enter transitions.
  await page.evaluate(() => globalThis.document.fonts.ready);
  await page.waitForTimeout(400);
}

/** A user with a plan of unlimited words (as the journeys' userWithAccess), signed up in `lang`. */
async function userWithAccess(baseUrl, adminToken, lang) {
  const user = { name: 'Ana', last_name: 'García', email: `screens.${lang}.${Date.now().toString(36)}@example.com`, password: 'screens-Pass-123', phone: '555 123 4567', lang };
  const { user: created, token } = await api(baseUrl, 'POST', '/auth/signup', { body: user });
  const products = await api(baseUrl, 'GET', '/products/available');
  const plan = products.find((p) => p.word_amount === null) ?? products[0];
  await api(baseUrl, 'POST', '/users/giveAccess', { token: adminToken, body: { user_id: created.user_id, product_id: plan.product_id, gift: true } });
  return { ...user, token };
}

/**
 * The screens issue 30 changed. Each `show` gets a signed-in page (the admin's when `staff`, else a fresh
 * user's with access) and the `data` its `prepare` made once per language through the API; it leaves the
 * page as it should be photographed. The demo model writes the answers (`[words:N] [rate:R]` shape them).
 */
const SCREENS = [
  {
    name: 'chat-stopped',
    async show(page, lang, user, baseUrl) {
      const { conversation_id: id } = await api(baseUrl, 'POST', '/conversations', { token: user.token, body: { name: lang === 'en' ? 'Lighthouse story' : 'Historia del faro' } });
      await page.goto(`/conversations/${id}`);
      const input = page.getByTestId('prompt-input').or(page.locator('textarea')).first();
      await input.fill(`[words:3000] [rate:25] ${lang === 'en' ? 'Tell me a long story about a lighthouse' : 'Cuéntame una historia larga sobre un faro'}`);
      await input.press('Enter');
      const answer = page.locator('[data-testid="message"][data-role="assistant"]').first();
      await answer.getByTestId('message-content').waitFor();
      await page.waitForTimeout(2500);
      await input.press('Escape');
      await answer.getByTestId('stopped-mark').waitFor();
    },
  },
  {
    name: 'super-fetch',
    async show(page) {
      await page.goto('/super-fetch');
      const brief = { task: '[rate:0] [words:60] Write a product page with a table', topic: 'Trail shoes', target: 'Weekend runners', person: 'A running coach', tone: 'Warm', format: 'AIDA' };
      for (const [key, value] of Object.entries(brief)) await page.getByTestId(`super-fetch-input-${key}`).fill(value);
      await page.getByTestId('super-fetch-outputs').fill('2');
      await page.getByTestId('super-fetch-generate').click();
      await page.getByTestId('super-fetch-output-content').first().getByRole('heading').first().waitFor();
      await page.evaluate(() => globalThis.scrollTo(0, 0));
    },
  },
  {
    name: 'avatar-no-key',
    async show(page) {
      await page.goto('/avatars');
      await page.getByTestId('avatars-add').or(page.getByRole('button', { name: /avatar/i })).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('input').first().fill('Coach');
      await dialog.locator('textarea').first().fill('A running coach who answers briefly.');
      await dialog.locator('button[type="submit"]').click();
      await dialog.getByRole('alert').waitFor();
    },
  },
  {
    // After avatar-no-key: the key saved here would hide that screen's message.
    name: 'widgets',
    async show(page, lang, user, baseUrl) {
      const token = user.token;
      await api(baseUrl, 'PUT', '/users/ai-key', { token, body: { api_key: 'sk-proj-screenshots-0123456789' } });
      const { avatar_id } = await api(baseUrl, 'POST', '/avatars', { token, body: { name: 'Coach', context: 'A running coach who answers briefly.' } });
      await api(baseUrl, 'POST', '/widgets', { token, body: { avatar_id, name: lang === 'en' ? 'Shop helper' : 'Ayuda de la tienda', accent_color: '#0b7285', allowed_origins: ['https://shop.example.com'] } });
      await api(baseUrl, 'POST', '/widgets', { token, body: { avatar_id, name: lang === 'en' ? 'Draft widget' : 'Widget en borrador', accent_color: '#7048e8', allowed_origins: [] } });
      await page.goto('/chat-widget-generator');
      const draft = page.getByText(lang === 'en' ? 'Draft widget' : 'Widget en borrador').first();
      await draft.waitFor();
      // The list (with its "answers nowhere yet" badge) sits under the form.
      await draft.scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'workflows',
    async show(page) {
      await page.goto('/workflows');
      await page.getByRole('heading', { level: 1 }).waitFor();
    },
  },
  {
    // Every field of the spec at creation (issue 30 item 20).
    name: 'organization-new',
    staff: true,
    async show(page) {
      await page.goto('/organizations');
      await page.getByTestId('create-organization').click();
      await page.getByTestId('organization-form').waitFor();
    },
  },
  {
    name: 'admin-users',
    staff: true,
    async show(page) {
      await page.goto('/admin/users');
      await page.getByRole('table').waitFor();
    },
  },
];

async function main() {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} not found: apt-get install -y chromium`);
  buildIfNeeded({ force: process.argv.includes('--build') });
  mkdirSync(OUT_DIR, { recursive: true });
  const server = await startServer({
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    logFile: path.join(repoRoot, 'e2e', 'artifacts', 'screenshots-server.log'),
  });
  const browser = await chromium.launch(launchOptions);
  const saved = [];
  try {
    const { token } = await api(server.baseUrl, 'POST', '/auth/login', { body: ADMIN });
    for (const { lang, locale, landingPath } of LANGS) {
      // The signed-in shell follows the user's saved language (spec part 1 §9).
      await api(server.baseUrl, 'PUT', '/users', { token, body: { lang } });
      for (const width of WIDTHS) {
        const contextOptions = {
          baseURL: server.baseUrl,
          locale,
          viewport: width.viewport,
          deviceScaleFactor: width.isMobile ? 2 : 1,
          isMobile: width.isMobile,
          hasTouch: width.isMobile,
          colorScheme: 'light',
        };
        const context = await browser.newContext(contextOptions);
        const page = await context.newPage();
        await page.goto(landingPath);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await settle(page);
        const landingFile = path.join(OUT_DIR, `landing-${lang}-${width.name}.png`);
        await page.screenshot({ path: landingFile });
        saved.push(landingFile);

        await signIn(page);
        await settle(page);
        const shellFile = path.join(OUT_DIR, `shell-${lang}-${width.name}.png`);
        await page.screenshot({ path: shellFile });
        saved.push(shellFile);

        // The user's own browser (its own storage: one token per origin).
        const user = await userWithAccess(server.baseUrl, token, lang);
        const userContext = await browser.newContext(contextOptions);
        const userPage = await userContext.newPage();
        await signIn(userPage, user);
        for (const screen of SCREENS) {
          const target = screen.staff ? page : userPage;
          await screen.show(target, lang, user, server.baseUrl);
          await settle(target);
          const file = path.join(OUT_DIR, `${screen.name}-${lang}-${width.name}.png`);
          await target.screenshot({ path: file });
          saved.push(file);
        }
        await userContext.close();
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  for (const file of saved) console.log(`saved ${path.relative(repoRoot, file)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
