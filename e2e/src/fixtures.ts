// The journeys' `test`: the lane's Chromium (lanes.ts; launched once by global setup, connected to per
// file), a fresh browser context per test (no shared cookies or local storage), and a screenshot of every
// open page under e2e/artifacts/ when a test fails.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Download, type Page } from 'playwright-core';
import { test as base } from 'vitest';
import { currentLane } from './lanes';
import { repoRoot } from './server-process';
import { visitorAddress } from './visitors';

export const artifactsDir = path.join(repoRoot, 'e2e', 'artifacts');

export interface JourneyFixtures {
  /** The lane's server, e.g. http://127.0.0.1:43123. */
  baseUrl: string;
  /** Opens a page in a new, isolated browser context (e.g. `{ locale: 'es-ES' }` for a Spanish browser). */
  openPage: (options?: BrowserContextOptions) => Promise<Page>;
  /** A page in an English (en-US) desktop browser. */
  page: Page;
}

export const test = base.extend<JourneyFixtures & { browser: Browser }>({
  browser: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const browser = await chromium.connect(currentLane().browserWsEndpoint, { timeout: 30_000 });
      await use(browser);
      // Disconnects (closing this file's contexts); the browser stays up for the lane's next file.
      await browser.close();
    },
    { scope: 'file' },
  ],
  // eslint-disable-next-line no-empty-pattern
  baseUrl: async ({}, use) => {
    await use(currentLane().baseUrl);
  },
  openPage: async ({ browser, baseUrl, task }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (options = {}) => {
      const context = await browser.newContext({
        baseURL: baseUrl,
        locale: 'en-US',
        viewport: { width: 1280, height: 800 },
        extraHTTPHeaders: { 'X-Forwarded-For': visitorAddress() },
        // A visitor who asks for less motion (a real setting the app honours, web/src/app/global.css): no
        // spinner or transition keeps Chromium repainting while a step waits, and no step waits on one.
        reducedMotion: 'reduce',
        ...options,
      });
      context.setDefaultTimeout(15_000);
      contexts.push(context);
      return context.newPage();
    });
    if (task.result?.state === 'fail') await screenshotPages(contexts, task.name);
    await Promise.all(contexts.map((context) => context.close()));
  },
  page: async ({ openPage }, use) => {
    await use(await openPage());
  },
});

async function screenshotPages(contexts: BrowserContext[], testName: string) {
  mkdirSync(artifactsDir, { recursive: true });
  const base = testName.replace(/[^\w-]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
  let index = 0;
  for (const context of contexts) {
    for (const page of context.pages()) {
      index += 1;
      const file = path.join(artifactsDir, `${base}-${index}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      console.error(`[e2e] failure screenshot: ${path.relative(repoRoot, file)} (${page.url()})`);
    }
  }
}

/**
 * Saves a download under e2e/artifacts/downloads/ and returns its path: download.path() is not available
 * in a browser that was connected to (the lane's), only in one launched by this process.
 */
export async function savedDownload(download: Download): Promise<string> {
  const dir = path.join(artifactsDir, 'downloads');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${randomUUID()}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  return file;
}

export { expect } from 'vitest';
