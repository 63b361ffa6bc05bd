// Account journeys (spec part 1 §2 screens, §5 validation, §8 messages; part 2 §2 session routing).
import { describe } from 'vitest';
import { waitForMailedLink, outboxFor } from './src/api';
import { expect, test } from './src/fixtures';
import { fillLogin, label, newcomer, signIn, signOut, signUpViaApi, texts } from './src/journey-steps';

const { en, es } = texts;

describe('auth', () => {
  test('[AUTH] signup shows each validation message from the spec', async ({ page }) => {
    await page.goto('/');
    // Get Started opens the sign-up form itself (issue 8).
    await page.getByRole('banner').getByRole('link', { name: 'Get Started' }).click();
    await page.waitForURL('**/auth/signup');
    const form = page.getByTestId('signup-form');
    const submit = form.getByRole('button', { name: en.signup.submit });

    // Nothing filled in: the signup action asks for the name, email and phone (spec part 1 §5).
    await submit.click();
    for (const message of ['Please enter your name.', 'Please enter your email.', 'Please enter your mobile phone number.', 'Last name is invalid.', 'Password must be 6 characters long.']) {
      await form.getByText(message, { exact: true }).waitFor();
    }

    // Wrong values: the spec's texts, one per field.
    await form.getByLabel(label(en.signup.name)).fill('N'.repeat(101));
    await form.getByLabel(label(en.signup.lastName)).fill('   ');
    await form.getByLabel(label(en.auth.email)).fill('ana@example');
    await form.getByLabel(label(en.auth.password)).fill('12345');
    await form.getByLabel(label(en.signup.confirmPassword)).fill('12345');
    await form.getByLabel(label(en.signup.phone)).fill('55-12');
    await submit.click();
    for (const message of ['Name is invalid.', 'Last name is invalid.', 'Email is invalid.', 'Password must be 6 characters long.', 'Phone number is invalid.']) {
      await form.getByText(message, { exact: true }).waitFor();
    }
    // Still on the signup screen: nothing was sent.
    expect(new URL(page.url()).pathname).toBe('/auth/signup');
  });

  test('[AUTH] a newcomer signs up, switches to Spanish, signs out and in, and resets the password', async ({ page }) => {
    const user = newcomer('journey');

    // Sign up from the landing page.
    await page.goto('/');
    // Get Started opens the sign-up form itself (issue 8).
    await page.getByRole('banner').getByRole('link', { name: 'Get Started' }).click();
    const form = page.getByTestId('signup-form');
    await form.getByLabel(label(en.signup.name)).fill(user.name);
    await form.getByLabel(label(en.signup.lastName)).fill(user.last_name);
    await form.getByLabel(label(en.auth.email)).fill(user.email);
    await form.getByLabel(label(en.signup.phone)).fill(user.phone);
    await form.getByLabel(label(en.auth.password)).fill(user.password);
    await form.getByLabel(label(en.signup.confirmPassword)).fill(user.password);
    await form.getByLabel(en.signup.reason).selectOption('Other');
    await form.getByLabel(en.signup.otherReason).fill('A friend at a conference');
    await form.getByRole('button', { name: en.signup.submit }).click();

    // No paid access yet: home shows the chat's no-access panel, with Get Access Now → /pricing (spec part 1 §2).
    const panel = page.getByTestId('no-access-panel');
    await panel.getByRole('heading', { name: en.access.chatNotice }).waitFor();
    expect(await panel.getByRole('link', { name: en.access.getAccess }).getAttribute('href')).toBe('/pricing');

    // Switch to Spanish in Settings; it stays Spanish after a reload.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: en.shell.settings }).click();
    const settings = page.getByTestId('settings-page');
    await settings.getByLabel(en.language.label).selectOption('es');
    await settings.getByRole('button', { name: en.common.save, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: es.settings.title }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: es.settings.title }).waitFor();
    expect(await page.evaluate(() => [localStorage.getItem('lang'), document.documentElement.lang])).toEqual(['es', 'es']);

    // Sign out, then sign in again (in Spanish).
    await signOut(page, 'es');
    await signIn(page, 'es', user.email, user.password);
    await page.getByTestId('no-access-panel').getByRole('heading', { name: es.access.chatNotice }).waitFor();

    // Forgot the password: the reset link arrives by mail (the outbox, as there is no SMTP here).
    await signOut(page, 'es');
    const earlierMails = new Set((await outboxFor(user.email)).map((mail) => mail.mail_id));
    await page.goto('/auth/login');
    await page.getByRole('link', { name: es.auth.forgotPassword }).click();
    await page.waitForURL('**/auth/recovery');
    // The login screen (same email label) stays up while the recovery screen's code loads.
    await page.getByTestId('recovery-page').waitFor();
    await page.getByLabel(label(es.auth.email)).fill(`  ${user.email.toUpperCase()} `);
    await page.getByRole('button', { name: es.recovery.submit }).click();
    await page.getByText(es.recovery.sent, { exact: true }).waitFor();
    const link = await waitForMailedLink(user.email, 'reset_password', earlierMails);
    expect(link).toMatch(/^\/reset-password\?token=/);

    // Follow the link, choose a new password: signed in again.
    const newPassword = 'second-Pass-2';
    await page.goto(link);
    await page.getByLabel(label(es.reset.newPassword)).fill(newPassword);
    await page.getByLabel(label(es.signup.confirmPassword)).fill(newPassword);
    await page.getByRole('button', { name: es.reset.submit }).click();
    await page.getByTestId('no-access-panel').waitFor();

    // The old password no longer works; the new one does.
    await signOut(page, 'es');
    await page.goto('/auth/login');
    await fillLogin(page, 'es', user.email, user.password);
    await page.getByText(es.auth.invalidCredentials, { exact: true }).waitFor();
    await signIn(page, 'es', user.email, newPassword);
    await page.getByTestId('no-access-panel').getByRole('heading', { name: es.access.chatNotice }).waitFor();
  });

  test('[AUTH] a wrong password shows the spec message and keeps the visitor signed out', async ({ page }) => {
    const user = newcomer('wrong-password');
    await signUpViaApi(user);
    await page.goto('/auth/login');
    await fillLogin(page, 'en', user.email, 'not-the-password');
    await page.getByText('Email or password is incorrect, please try again.', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('[AUTH] recovery for an unknown email says no account was found', async ({ page }) => {
    await page.goto('/auth/recovery');
    await page.getByLabel(label(en.auth.email)).fill(`nobody.${Date.now()}@example.com`);
    await page.getByRole('button', { name: en.recovery.submit }).click();
    await page.getByText('We did not found any account with this email. Could your account be under a different email?', { exact: true }).waitFor();
  });

  test('[AUTH] a signed-in user who opens an auth path is sent to /', async ({ page }) => {
    const user = newcomer('redirect');
    await signUpViaApi(user);
    await signIn(page, 'en', user.email, user.password);
    for (const path of ['/auth/login', '/auth/signup', '/latam']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByTestId('no-access-panel').waitFor();
    }
  });
});
