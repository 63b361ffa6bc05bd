// Steps several journeys share: filling the auth forms and the user menu, by their visible labels.
import type { Page } from 'playwright-core';
import en from '../../web/src/i18n/en.json';
import es from '../../web/src/i18n/es.json';
import { inject } from 'vitest';
import { adminSessionToken, apiRequest } from './api';

export const texts = { en, es } as const;
export type UiLang = keyof typeof texts;

export interface Newcomer {
  name: string;
  last_name: string;
  email: string;
  password: string;
  phone: string;
}

/** Matches a field's label exactly, with or without Mantine's required-field asterisk. */
export function label(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);
}

let counter = 0;
/** A user nobody has signed up with yet in this server's database. */
export function newcomer(label: string): Newcomer {
  counter += 1;
  return {
    name: 'Ana',
    last_name: 'García',
    email: `${label}.${Date.now().toString(36)}.${counter}@example.com`,
    password: 'first-Pass-1',
    phone: '555 123 4567',
  };
}

/** Creates the account through the API (for journeys that are not about signing up). */
export async function signUpViaApi(user: Newcomer): Promise<void> {
  await apiRequest('POST', '/auth/signup', { body: { ...user } });
}

/**
 * This browser remembers the admin's passed second factor (issue 33; global-setup.ts), as a browser that
 * ticked "remember this device" would: the token only counts for the admin's own account.
 */
export async function rememberAdminDevice(page: Page) {
  const token = inject('adminDeviceToken');
  await page.evaluate((value) => localStorage.setItem('pluma.trustedDevices', JSON.stringify([value])), token);
}

export async function fillLogin(page: Page, lang: UiLang, email: string, password: string) {
  const t = texts[lang];
  await page.getByTestId('login-form').waitFor();
  await rememberAdminDevice(page);
  await page.getByLabel(label(t.auth.email)).fill(email);
  await page.getByLabel(label(t.auth.password)).fill(password);
  await page.getByRole('button', { name: t.auth.loginButton, exact: true }).click();
}

/** Signs in from the login screen and waits until the signed-in shell is showing. */
export async function signIn(page: Page, lang: UiLang, email: string, password: string) {
  await page.goto('/auth/login');
  await fillLogin(page, lang, email, password);
  await page.getByTestId('app-sidebar').waitFor();
}

/** Opens the user menu in the sidebar and logs out: the shell goes away and the session token with it. */
export async function signOut(page: Page, lang: UiLang) {
  const t = texts[lang];
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: t.shell.logout }).click();
  await page.getByTestId('app-sidebar').waitFor({ state: 'detached' });
  await page.waitForFunction(() => localStorage.getItem('token') === null);
}

export interface ChatUser {
  email: string;
  password: string;
  token: string;
}

/** Signs a user up (API) and gives them access as the admin (POST /api/users/giveAccess, gift of a seeded plan). */
export async function userWithAccess(tag: string, lang: UiLang): Promise<ChatUser> {
  const user = newcomer(tag);
  // Sign-up allows 5 a minute per address: each call comes from a new visitor's address (visitors.ts).
  const { token, user: created } = await apiRequest<{ token: string; user: { user_id: number } }>('POST', '/auth/signup', { body: { ...user, lang } });
  const products = await apiRequest<{ product_id: number; word_amount: number | null }[]>('GET', '/products/available');
  // Unlimited words, so the long answers of these journeys never run out.
  const plan = products.find((p) => p.word_amount === null) ?? products[0];
  if (!plan) throw new Error('no product to give access with: the server seeds sample plans on a fresh database');
  await apiRequest('POST', '/users/giveAccess', { token: await adminSessionToken(), body: { user_id: created.user_id, product_id: plan.product_id, gift: true } });
  return { email: user.email, password: user.password, token };
}
