// The embeddable chat widget journey (issue 15 item 4 and "Acceptance": "The widget embedded in a page served
// from another port: chat through it with streaming; a page on a disallowed origin is refused; a disabled
// widget stops answering; the owner's budget stops it when spent"), in English and Spanish. A user with
// access creates an avatar and a widget through the API whose only allowed website is a stranger's site on
// another port of 127.0.0.1 (e2e/src/widget-host.ts: static pages under a strict CSP — default-src 'none',
// scripts, styles, requests, images and frames only from the app). The site pastes the generator's snippet
// (web/src/features/widgets/snippet.ts); the visitor opens the launcher, chats and watches the Demo model's
// answer stream in (`[words:N] [rate:N]`; the owner reads it saved), reloads and finds the conversation again; /chat-embedded in an
// iframe works there too. A second site, not on the list, gets 'not available' and no answer, and its
// iframe of /chat-embedded is refused (frame-ancestors). Then the owner disables the widget (it stops
// answering) and, with a small words plan, spends the words: 'limit reached'.
import { countWords } from '@pluma/common/rules/token-estimate';
import { translate } from '@pluma/common/messages';
import axe from 'axe-core';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { widgetSnippet } from '../web/src/features/widgets/snippet';
import { translator } from '../web/widget/i18n';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { adminSessionToken, apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { currentLane } from './src/lanes';
import { newcomer, signUpViaApi, type UiLang } from './src/journey-steps';
import { hostDocument, startHostSite, type HostSite } from './src/widget-host';

interface Owner {
  token: string;
  avatarId: number;
}

interface CreatedWidget {
  widget_id: number;
  public_key: string;
  name: string;
  accent_color: string;
  image_url: string | null;
}

/** Words the owner's plan gives: enough for the journey's short answers, then spent on purpose at the end. */
const PLAN_WORDS = 400;

const script = {
  en: { widget: 'Garden helper', avatar: 'Gardener Gil', question: 'Which flowers like shade?', frameQuestion: 'And roses?', locale: 'en-US' },
  es: { widget: 'Ayudante del jardín', avatar: 'Jardinera Julia', question: '¿Qué flores prefieren la sombra?', frameQuestion: '¿Y las rosas?', locale: 'es-ES' },
} as const;

/**
 * The journeys' X-Forwarded-For (a distinct visitor address per context) would be a custom header on the
 * site's cross-origin requests, which the widget API's CORS rightly does not allow: these visitors come
 * from 127.0.0.1 as they are.
 */
const visitor = (locale: string) => ({ locale, extraHTTPHeaders: {} });

let allowed: HostSite;
let refused: HostSite;
let owner: Owner;
let appOrigin: string;

async function ownerWithSmallPlan(): Promise<Owner> {
  const admin = await adminSessionToken();
  const user = newcomer('widget-owner');
  await signUpViaApi(user);
  const { token } = await apiRequest<{ token: string }>('POST', '/auth/login', { body: { email: user.email, password: user.password } });
  const me = await apiRequest<{ user_id: number }>('GET', '/users', { token });
  const product = await apiRequest<{ product_id: number }>('POST', '/products', {
    token: admin,
    body: { name: `Widget plan ${Date.now().toString(36)}`, description: 'A small plan for the widget journey.', price: 5, word_amount: PLAN_WORDS, expiration_days: 30, available: true },
  });
  await apiRequest('POST', '/users/giveAccess', { token: admin, body: { user_id: me.user_id, product_id: product.product_id, gift: true } });
  // An avatar needs its owner's own AI key (spec part 1 §1); the widget answers on the operator's model.
  await apiRequest('PUT', '/users/ai-key', { token, body: { api_key: 'sk-proj-widget-journey-0123456789' } });
  const avatar = await apiRequest<{ avatar_id: number }>('POST', '/avatars', { token, body: { name: script.en.avatar, context: 'A friendly gardener who answers briefly.' } });
  return { token, avatarId: avatar.avatar_id };
}

async function createWidget(lang: UiLang): Promise<CreatedWidget> {
  return apiRequest<CreatedWidget>('POST', '/widgets', {
    token: owner.token,
    body: { avatar_id: owner.avatarId, name: script[lang].widget, accent_color: '#0b7285', allowed_origins: [allowed.origin] },
  });
}

/** The stranger's page with the generator's snippet pasted in, and one with /chat-embedded in an iframe. */
function hostPages(site: HostSite, widget: CreatedWidget, lang: UiLang) {
  const snippet = widgetSnippet(widget, appOrigin, lang);
  const frame = `<iframe src="${appOrigin}/chat-embedded?key=${widget.public_key}&amp;lang=${lang}" title="Chat" width="400" height="560"></iframe>`;
  return {
    snippet: site.page(`/${lang}/${widget.widget_id}/snippet`, hostDocument('Shop', snippet, lang)),
    frame: site.page(`/${lang}/${widget.widget_id}/frame`, hostDocument('Shop', frame, lang)),
  };
}

/** Content-Security-Policy violations the page reports (Chromium logs each to the console). */
function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

const answers = (scope: Page | Frame) => scope.locator('.pw-message-assistant .pw-message-text');

/** The newest visitor conversation's last answer, as the owner reads it (GET /api/widgets/{id}/sessions/…). */
async function savedAnswer(widget: CreatedWidget): Promise<string> {
  const { sessions } = await apiRequest<{ sessions: { session_id: number }[] }>('GET', `/widgets/${widget.widget_id}/sessions`, { token: owner.token });
  const { messages } = await apiRequest<{ messages: { role: string; content: string; status: string }[] }>(
    'GET',
    `/widgets/${widget.widget_id}/sessions/${sessions[0].session_id}`,
    { token: owner.token },
  );
  const answer = messages.filter((message) => message.role === 'assistant').at(-1);
  expect(answer?.status).toBe('done');
  return answer?.content ?? '';
}

/**
 * Sends `text` with Enter, sees part of the answer painted while the rest is still being written, and
 * waits for the whole: the owner's saved copy has the `words` asked for, and its last line is on screen.
 */
async function chat(scope: Page | Frame, widget: CreatedWidget, lang: UiLang, text: string, words: number) {
  const before = await answers(scope).count();
  const input = scope.getByRole('textbox', { name: translator(lang)('messageLabel') });
  await input.fill(text);
  await input.press('Enter');
  const streaming = scope.locator('.pw-message-streaming .pw-message-text');
  await expect.poll(async () => ((await streaming.count()) ? countWords(await streaming.innerText()) : 0), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect.poll(() => scope.locator('.pw-message-streaming').count(), { timeout: 30_000 }).toBe(0);
  await expect.poll(() => answers(scope).count()).toBe(before + 1);
  const saved = await savedAnswer(widget);
  expect(countWords(saved)).toBe(words);
  const lastLine = saved.trim().split('\n').at(-1)!.replace(/[*_`#]/g, '').trim();
  expect((await answers(scope).nth(before).innerText()).replace(/\s+/g, ' ')).toContain(lastLine.replace(/\s+/g, ' '));
}

beforeAll(async () => {
  appOrigin = new URL(currentLane().baseUrl).origin;
  [allowed, refused] = await Promise.all([startHostSite(appOrigin), startHostSite(appOrigin)]);
  owner = await ownerWithSmallPlan();
});

afterAll(async () => {
  await Promise.all([allowed?.close(), refused?.close()]);
});

describe('chat widget on another website', () => {
  for (const lang of ['en', 'es'] as const) {
    test(`${lang.toUpperCase()}: chat through the widget with streaming under a strict CSP, resume after a reload, /chat-embedded in an iframe; a site not on the list is refused`, async ({ openPage }) => {
      const t = translator(lang);
      const s = script[lang];
      const widget = await createWidget(lang);
      const page = await openPage(visitor(s.locale));
      const violations = cspViolations(page);
      const pages = hostPages(allowed, widget, lang);

      // 1. The snippet's launcher, labelled in the page's widget language; page styles do not reach inside.
      await page.goto(pages.snippet);
      const launcher = page.getByRole('button', { name: t('openChat', { name: s.widget }) });
      await launcher.click();
      const dialog = page.getByRole('dialog', { name: s.widget });
      await dialog.getByText(t('greeting', { name: s.widget })).waitFor();
      await page.evaluate(() => {
        // A hostile page rule (a constructed sheet: the page's CSP allows no inline style).
        const sheet = new CSSStyleSheet();
        sheet.replaceSync('button, textarea, section, p { color: rgb(255, 0, 0) !important; visibility: hidden !important; }');
        document.adoptedStyleSheets = [sheet];
      });
      const inputStyle = await dialog.getByRole('textbox').evaluate((input) => ({ color: getComputedStyle(input).color, visibility: getComputedStyle(input).visibility, fontSize: getComputedStyle(input).fontSize }));
      expect(inputStyle).toEqual({ color: expect.not.stringMatching(/^rgb\(255, 0, 0\)$/), visibility: 'visible', fontSize: '16px' });
      expect(await page.locator('#page-text').evaluate((p) => getComputedStyle(p).visibility)).toBe('hidden');

      // 2. A streamed answer (axe then checks the open widget: the site's CSP refuses axe as a <script>, so
      // it is evaluated directly), then Escape closes and gives the focus back to the launcher.
      await chat(page, widget, lang, `[words:40] [rate:25] ${s.question}`, 40);
      expect(violations, 'the widget needs nothing the strict CSP refuses').toEqual([]);
      await page.evaluate(() => (document.adoptedStyleSheets = []));
      await page.evaluate(axe.source);
      await expectNoSeriousA11yViolations(page, `the widget on a site (${lang})`);
      violations.length = 0; // axe's own inline styles (the test's doing, not the widget's)
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await page.evaluate(() => document.querySelector('#pluma-chat-widget')?.shadowRoot?.activeElement?.className)).toBe('pw-launcher');

      // 3. A reload resumes the conversation (session token in localStorage).
      await page.reload();
      // A returning visitor's conversation is fetched at load, before any click (widget.ts ensureStarted):
      // wait until it is there, so the click opens a widget that is ready (under a loaded CI, a click during
      // the script's start was once lost).
      await page.locator('#pluma-chat-widget .pw-message-user', { hasText: s.question }).waitFor({ state: 'attached' });
      await launcher.click();
      await dialog.locator('.pw-message-user', { hasText: s.question }).waitFor();
      expect(await answers(page).count()).toBe(1);

      // 4. /chat-embedded in an iframe of the allowed site.
      await page.goto(pages.frame);
      const frame = page.frames().find((candidate) => candidate.url().startsWith(`${appOrigin}/chat-embedded`));
      expect(frame, 'the allowed site frames /chat-embedded').toBeDefined();
      await frame!.getByRole('dialog', { name: s.widget }).waitFor();
      await chat(frame!, widget, lang, `[words:12] [rate:25] ${s.frameQuestion}`, 12);
      expect(violations).toEqual([]);

      // 5. A site that is not on the list: the widget says it is unavailable and nothing is sent.
      const refusedPages = hostPages(refused, widget, lang);
      await page.goto(refusedPages.snippet);
      await page.getByRole('button', { name: t('openChat', { name: s.widget }) }).click();
      await page.getByRole('dialog').getByText(t('unavailable')).waitFor();
      expect(await page.getByRole('dialog').getByRole('textbox').isDisabled()).toBe(true);
      expect(await answers(page).count()).toBe(0);

      // 6. … and its iframe of /chat-embedded is refused by the browser (frame-ancestors).
      const framed = page.waitForEvent('console', (message) => /frame-ancestors/.test(message.text()));
      await page.goto(refusedPages.frame);
      await framed;
      const blocked = page.frames().filter((candidate) => candidate !== page.mainFrame());
      for (const candidate of blocked) expect(await candidate.locator('#pluma-chat-widget').count()).toBe(0);
    });
  }

  test("the owner's switch and budget: a disabled widget stops answering (EN), spent words say 'limit reached' (ES)", async ({ openPage }) => {
    const widget = await createWidget('en');
    const page = await openPage(visitor('en-US'));
    const pages = { en: hostPages(allowed, widget, 'en'), es: hostPages(allowed, widget, 'es') };

    // Disabled after the visitor opened the chat: the next message gets the server's refusal and no answer.
    await page.goto(pages.en.snippet);
    await page.getByRole('button', { name: translator('en')('openChat', { name: script.en.widget }) }).click();
    await page.getByRole('dialog').getByText(translator('en')('greeting', { name: script.en.widget })).waitFor();
    await apiRequest('PUT', `/widgets/${widget.widget_id}`, { token: owner.token, body: { enabled: false } });
    const input = page.getByRole('dialog').getByRole('textbox');
    await input.fill('Are you there?');
    await input.press('Enter');
    await page.getByRole('dialog').getByText(translate('en', 'widget_disabled')).waitFor();
    expect(await answers(page).count()).toBe(0);

    // Enabled again, in Spanish: a long answer spends what is left of the owner's words, then 'limit reached'.
    await apiRequest('PUT', `/widgets/${widget.widget_id}`, { token: owner.token, body: { enabled: true } });
    await page.goto(pages.es.snippet);
    await page.getByRole('button', { name: translator('es')('openChat', { name: script.en.widget }) }).click();
    const esInput = page.getByRole('dialog').getByRole('textbox');
    await esInput.fill('[words:5000] [rate:0] Escribe un ensayo muy largo');
    await esInput.press('Enter');
    await expect.poll(() => page.locator('.pw-message-streaming').count(), { timeout: 30_000 }).toBe(0);
    expect(countWords(await answers(page).last().innerText())).toBeLessThanOrEqual(PLAN_WORDS);
    await esInput.fill('¿Sigues ahí?');
    await esInput.press('Enter');
    await page.getByRole('dialog').getByText(translate('es', 'widget_limit_reached')).waitFor();
  });
});
