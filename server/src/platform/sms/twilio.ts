// Twilio's official SDK (`twilio`), optionally pointed at another server: the SDK builds every address on
// https://api.twilio.com, and its documented hook for custom transport is the `httpClient` option, so a
// RequestClient that moves each request to TWILIO_API_URL (same path and query) does it without touching
// the SDK's signing, form encoding or error handling.
import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import type { TwilioSettings } from './sms';

// A request waiting on the SMS provider must not hang: 10 s, and no SDK retries (the user can resend).
const TIMEOUT_MS = 10_000;

class RedirectingClient extends twilio.RequestClient {
  constructor(private readonly baseUrl: URL) {
    super({ timeout: TIMEOUT_MS, autoRetry: false });
  }

  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const target = new URL(opts.uri);
    const moved = new URL(this.baseUrl.pathname.replace(/\/$/, '') + target.pathname + target.search, this.baseUrl);
    return super.request<TData>({ ...opts, uri: moved.href });
  }
}

const clients = new Map<string, twilio.Twilio>();

/** One client per credentials and address (each holds its own connection pool). */
export function twilioClient(settings: TwilioSettings, apiUrl?: string): twilio.Twilio {
  const key = JSON.stringify([settings.accountSid, settings.authToken, apiUrl ?? '']);
  let client = clients.get(key);
  if (!client) {
    const httpClient = apiUrl ? new RedirectingClient(new URL(apiUrl)) : new twilio.RequestClient({ timeout: TIMEOUT_MS, autoRetry: false });
    client = twilio(settings.accountSid, settings.authToken, { httpClient });
    // Settings change rarely; a few stale entries are harmless, but keep the map bounded.
    if (clients.size >= 20) clients.clear();
    clients.set(key, client);
  }
  return client;
}
