// Twilio's official SDK (`twilio`), optionally pointed at another server: the SDK builds every address on
// https://api.twilio.com, and its documented hook for custom transport is the `httpClient` option, so a
// RequestClient that moves each request to TWILIO_API_URL (same path and query) does it without touching
// the SDK's signing, form encoding or error handling. The SDK is loaded on the first text message, not at
// boot (cold start: most installs never send one).
import type { Twilio } from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import type { TwilioSettings } from './sms';

// A request waiting on the SMS provider must not hang: 10 s, and no SDK retries (the user can resend).
const TIMEOUT_MS = 10_000;

type TwilioSdk = typeof import('twilio');

let sdk: Promise<TwilioSdk> | undefined;
const loadSdk = () => (sdk ??= import('twilio').then((module) => ((module as { default?: TwilioSdk }).default ?? module) as TwilioSdk));

function redirectingClient(twilio: TwilioSdk, baseUrl: URL): RequestClient {
  class RedirectingClient extends twilio.RequestClient {
    override request<TData>(opts: RequestClient.RequestOptions<TData>) {
      const target = new URL(opts.uri);
      const moved = new URL(baseUrl.pathname.replace(/\/$/, '') + target.pathname + target.search, baseUrl);
      return super.request<TData>({ ...opts, uri: moved.href });
    }
  }
  return new RedirectingClient({ timeout: TIMEOUT_MS, autoRetry: false });
}

const clients = new Map<string, Twilio>();

/** One client per credentials and address (each holds its own connection pool). */
export async function twilioClient(settings: TwilioSettings, apiUrl?: string): Promise<Twilio> {
  const key = JSON.stringify([settings.accountSid, settings.authToken, apiUrl ?? '']);
  const known = clients.get(key);
  if (known) return known;
  const twilio = await loadSdk();
  const httpClient = apiUrl ? redirectingClient(twilio, new URL(apiUrl)) : new twilio.RequestClient({ timeout: TIMEOUT_MS, autoRetry: false });
  const client = twilio(settings.accountSid, settings.authToken, { httpClient });
  // Settings change rarely; a few stale entries are harmless, but keep the map bounded.
  if (clients.size >= 20) clients.clear();
  clients.set(key, client);
  return client;
}
