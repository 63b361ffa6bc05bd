// Screenshots for the README: the landing and the signed-in shell, at 1280 px and 390 px, in English
// and Spanish (8 PNGs in docs/screenshots/). Rerunnable: builds when server/dist or web/dist is missing
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
async function signIn(page) {
  await page.goto('/auth/login');
  await page.locator('input[type="email"], input[name="email"]').first().fill(ADMIN.email);
  await page.locator('input[type="password"]').first().fill(ADMIN.password);
  await page.locator('form button[type="submit"]').first().click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth'), { timeout: 30_000 });
}

async function settle(page) {
  await page.waitForLoadState('networkidle');
  // Fonts, images and enter transitions.
  await page.evaluate(() => globalThis.document.fonts.ready);
  await page.waitForTimeout(400);
}

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
        const context = await browser.newContext({
          baseURL: server.baseUrl,
          locale,
          viewport: width.viewport,
          deviceScaleFactor: width.isMobile ? 2 : 1,
          isMobile: width.isMobile,
          hasTouch: width.isMobile,
          colorScheme: 'light',
        });
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
