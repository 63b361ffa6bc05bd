// Direct API calls the journeys need around the browser: the admin's token and the mail outbox
// (GET /api/admin/outbox?to=, admins only), where a password-reset link lands when there is no SMTP.
import { inject } from 'vitest';
import { currentLane } from './lanes';
import { visitorAddress } from './visitors';

export interface OutboxMail {
  mail_id: number;
  to: string;
  subject: string;
  text: string;
  kind: string;
  createdAt: string;
}

export interface ApiOptions {
  token?: string;
  body?: unknown;
}

/** A JSON call to the lane's server (lanes.ts). */
export function apiRequest<T>(method: string, path: string, options: ApiOptions = {}): Promise<T> {
  return apiRequestAt<T>(currentLane().baseUrl, method, path, options);
}

/** A JSON call to the server at `baseUrl`, from a simulated visitor's address; throws on a non-2xx answer. */
export async function apiRequestAt<T>(baseUrl: string, method: string, path: string, options: ApiOptions = {}): Promise<T> {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: {
      accept: 'application/json',
      'x-forwarded-for': visitorAddress(),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /api${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * The admin's sign-in body for a server of its own started from the seeded data directory: the password and
 * the remembered device of its second factor (issue 33; global-setup.ts), so /auth/login answers a session.
 */
export function adminLoginBody() {
  return { email: inject('adminEmail'), password: inject('adminPassword'), device_tokens: [inject('adminDeviceToken')] };
}

let adminToken: Promise<string> | undefined;

/** Signs in as the admin created from ADMIN_EMAIL/ADMIN_PASSWORD (once per test file). */
export function adminSessionToken(): Promise<string> {
  adminToken ??= apiRequest<{ token: string }>('POST', '/auth/login', {
    body: adminLoginBody(),
  }).then((answer) => answer.token);
  return adminToken;
}

export async function outboxFor(to: string): Promise<OutboxMail[]> {
  const token = await adminSessionToken();
  const answer = await apiRequest<{ items: OutboxMail[] }>('GET', `/admin/outbox?to=${encodeURIComponent(to)}`, { token });
  return answer.items;
}

/**
 * Waits for a mail of `kind` (e.g. 'reset_password') to `to`, newer than any mail id in `seenIds`, and
 * returns its link's path and query, so the journey opens it on the server under test whatever
 * PUBLIC_URL the mail was written with.
 */
export async function waitForMailedLink(to: string, kind: string, seenIds: ReadonlySet<number> = new Set(), timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const mail of await outboxFor(to)) {
      if (mail.kind !== kind || seenIds.has(mail.mail_id)) continue;
      const link = mail.text.match(/https?:\/\/[^\s<>"')]+/)?.[0];
      if (link) {
        const url = new URL(link);
        return `${url.pathname}${url.search}${url.hash}`;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail with a link reached ${to} within ${timeoutMs / 1000} s`);
}
