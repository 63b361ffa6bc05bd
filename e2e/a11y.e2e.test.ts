// Accessibility: axe-core on the public and account screens reports no serious or critical violations.
import { describe } from 'vitest';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { test } from './src/fixtures';
import { newcomer, signIn, signUpViaApi } from './src/journey-steps';

describe('a11y', () => {
  test('[A11Y] the English and Spanish landing pages, on desktop and phone, light and dark', async ({ openPage }) => {
    const variants = [
      { viewport: { width: 1280, height: 800 }, colorScheme: 'light' as const },
      { viewport: { width: 390, height: 844 }, colorScheme: 'light' as const },
      { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' as const },
    ];
    for (const variant of variants) {
      const page = await openPage(variant);
      for (const path of ['/', '/latam']) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await expectNoSeriousA11yViolations(page, `landing ${path} at ${variant.viewport.width} px, ${variant.colorScheme}`);
      }
    }
  });

  test('[A11Y] login, signup and recovery screens', async ({ page }) => {
    for (const [path, testId] of [
      ['/auth/login', 'login-form'],
      ['/auth/signup', 'signup-form'],
      ['/auth/recovery', 'recovery-form'],
    ]) {
      await page.goto(path);
      await page.getByTestId(testId).waitFor();
      await expectNoSeriousA11yViolations(page, path);
    }
    // With the validation messages showing.
    await page.goto('/auth/signup');
    await page.getByTestId('signup-form').getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Please enter your name.').waitFor();
    await expectNoSeriousA11yViolations(page, 'signup with errors');
  });

  test('[A11Y] settings and profile of a signed-in user', async ({ page }) => {
    const user = newcomer('a11y');
    await signUpViaApi(user);
    await signIn(page, 'en', user.email, user.password);
    await page.goto('/settings');
    await page.getByTestId('settings-page').waitFor();
    await expectNoSeriousA11yViolations(page, 'settings');
    await page.goto('/profile');
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'profile');
  });
});
