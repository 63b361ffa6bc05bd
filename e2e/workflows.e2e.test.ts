// Workflows journey (issue 14 "Acceptance": start a workflow of two templates and regenerate a step; spec
// part 2 §2 "Workflows"), in English and Spanish: the admin has built a workflow of two public templates
// (through the API); a user with access opens the Workflows tab, starts it with a value holding a comma and
// an '=' (saved as the escaped key=value string), finds it under My workflows with the value intact, runs
// step 1, then step 2 (which is given step 1's answer: `[echo]` makes the emulated model answer with the
// transcript it received), regenerates step 2, and deletes the run ('You don't have any workflows').
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import workflowsEn from '../web/src/i18n/workflows.en.json';
import workflowsEs from '../web/src/i18n/workflows.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { adminSessionToken, apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { signIn, texts, userWithAccess, type UiLang } from './src/journey-steps';

const wfTexts = { en: workflowsEn, es: workflowsEs } as const;
const answers = (page: Page) => page.locator('[data-testid="message"][data-role="assistant"]');

/** Two public templates and the workflow made of them, as the admin. */
async function adminBuildsWorkflow(lang: UiLang): Promise<{ name: string; draftName: string }> {
  const token = await adminSessionToken();
  const stamp = `${lang}-${Date.now()}`;
  const template = (name: string, content: string) =>
    apiRequest<{ template_id: number }>('POST', '/templates', { token, body: { name, description: `${name} step`, content, language: lang, public: true } });
  const draft = await template(`Draft ${stamp}`, 'Write a short post about [Topic].');
  const tweet = await template(`Tweet ${stamp}`, 'Turn the text into a tweet for [Audience: parents/teachers/]. [Style]');
  const name = `Post to tweet ${stamp}`;
  await apiRequest('POST', '/workflows', { token, body: { name, description: 'Draft, then tweet', tags: ['social'], template_ids: [draft.template_id, tweet.template_id] } });
  return { name, draftName: `Draft ${stamp}` };
}

async function workflowsJourney(page: Page, lang: UiLang) {
  const t = wfTexts[lang];
  const { name: workflowName, draftName } = await adminBuildsWorkflow(lang);
  const user = await userWithAccess(`workflows-${lang}`, lang);
  await signIn(page, lang, user.email, user.password);

  await page.getByTestId('app-sidebar').getByRole('link', { name: texts[lang].breadcrumbs.workflows }).click();
  await page.waitForURL(/\/workflows$/);
  await page.getByTestId('workflow-card').filter({ hasText: workflowName }).getByTestId('open-workflow').click();
  await page.waitForURL(/\/workflows\/\d+$/);
  await expectNoSeriousA11yViolations(page, `workflow detail (${lang})`);

  // Start: every field is required; a value with ',' and '=' survives the key=value string.
  const topic = 'cats, dogs = best friends [words:25] [rate:0]';
  await page.getByTestId('run-name').fill('Pets');
  await page.getByTestId('field-Topic').fill(topic);
  await page.getByTestId('field-Audience').click();
  await page.getByRole('option', { name: 'teachers' }).click();
  await page.getByTestId('field-Style').fill('[echo] [rate:0]');
  await page.getByTestId('start-workflow').click();
  await page.waitForURL(/\/user_workflows\/\d+$/);
  await expect.poll(() => page.getByTestId('field-Topic').inputValue()).toBe(topic);

  // Step 1, then step 2 once step 1 has its answer.
  const steps = page.getByTestId('run-step');
  await expect.poll(() => steps.nth(1).getByTestId('run-step-button').isDisabled()).toBe(true);
  await steps.nth(0).getByTestId('run-step-button').click();
  await page.waitForURL(/\/conversation\/\d+$/);
  await expect.poll(() => page.getByTestId('step-regenerate').isEnabled(), { timeout: 30_000 }).toBe(true);
  const firstAnswer = (await answers(page).last().getByTestId('message-content').innerText()).trim();
  expect(firstAnswer.length).toBeGreaterThan(0);
  // The step's template hides its prompt (show_prompt off): the user's message is its name and the values,
  // filled on the server (issue 30 item 9); the prompt text is nowhere on the page.
  const sentPrompt = (await page.locator('[data-testid="message"][data-role="user"]').last().innerText()).trim();
  expect(sentPrompt).toContain(draftName);
  expect(sentPrompt).toContain('Topic: cats, dogs = best friends');
  expect(await page.locator('body').innerText()).not.toContain('Write a short post about');

  await page.getByTestId('next-step').click();
  await page.getByTestId('step-run').click();
  await expect.poll(() => page.getByTestId('step-regenerate').isEnabled(), { timeout: 30_000 }).toBe(true);
  // The model was given step 1's answer (the echo repeats what it received).
  const firstLine = firstAnswer.split('\n')[0] as string;
  await expect.poll(() => answers(page).last().innerText()).toContain(firstLine.slice(0, 40));
  await expectNoSeriousA11yViolations(page, `workflow step chat (${lang})`);

  // Regenerate step 2: a new answer to the same prompt.
  await page.getByTestId('step-regenerate').click();
  await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBe(2);
  await expect.poll(() => page.getByTestId('step-regenerate').isEnabled(), { timeout: 30_000 }).toBe(true);

  // Back to the run; delete it; My workflows is empty.
  await page.getByRole('link', { name: t.step.back }).click();
  await page.getByTestId('delete-user-workflow').click();
  await page.getByRole('dialog').getByRole('button', { name: t.run.delete }).click();
  await page.waitForURL(/\/user_workflows$/);
  await expect.poll(() => page.getByTestId('user-workflows-empty').textContent()).toContain(t.mine.empty);
}

describe('workflows', () => {
  test('[WORKFLOWS] start a workflow of two templates, run both steps, regenerate a step, delete it (English)', async ({ openPage }) => {
    const page = await openPage();
    await workflowsJourney(page, 'en');
  });

  test('[WORKFLOWS] start a workflow of two templates, run both steps, regenerate a step, delete it (Spanish)', async ({ openPage }) => {
    const page = await openPage({ locale: 'es-ES' });
    await page.addInitScript(() => localStorage.setItem('lang', 'es'));
    await workflowsJourney(page, 'es');
  });
});
