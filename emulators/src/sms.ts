// An SMS emulator speaking Twilio's Messages REST API (issue 33 item 1), for tests, journeys and the offline
// demo. The official `twilio` SDK talks to it when pointed here (server: TWILIO_API_URL):
//   POST /2010-04-01/Accounts/{AccountSid}/Messages.json   form body To, From, Body; HTTP basic auth
//        (AccountSid:AuthToken) → 201 with a Message resource (sid SM…, status 'queued')
//   GET  /2010-04-01/Accounts/{AccountSid}/Messages.json?To=…  → Twilio's list page { messages: [...] }
// Errors come in Twilio's shape { code, message, more_info, status }: 20003 for bad credentials, 21211 for
// a number that is not E.164, 21602/21603/21604 for a missing Body/From/To.
// Outside Twilio's API: GET /emulator/messages?to=… (the texts, newest first, for journeys and the demo).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyError, listen, sendJson } from './http-kit';

export interface EmulatedSms {
  sid: string;
  account_sid: string;
  to: string;
  from: string;
  body: string;
  date_created: string;
}

export interface RunningSmsEmulator {
  /** http://host:port — give it as TWILIO_API_URL. */
  url: string;
  /** Every message accepted, oldest first. */
  messages: EmulatedSms[];
  /** The 6-digit code in the newest message to `to`, or null. */
  lastCode(to: string): string | null;
  /** The next `times` sends fail with Twilio's error `code` and HTTP `status`. */
  failNext(status: number, code: number, times?: number): void;
  close(): Promise<void>;
}

export interface SmsEmulatorOptions {
  /** Only these credentials are accepted; without them any non-empty SID (AC…) and token are. */
  accountSid?: string;
  authToken?: string;
  port?: number;
  host?: string;
}

const API = '/2010-04-01/Accounts/';
const E164 = /^\+[1-9]\d{6,14}$/;

function twilioError(res: ServerResponse, status: number, code: number, message: string) {
  sendJson(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new BodyError('Request body too large.');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function basicAuth(req: IncomingMessage): { user: string; password: string } | null {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function resource(message: EmulatedSms) {
  const uri = `${API}${message.account_sid}/Messages/${message.sid}.json`;
  return {
    account_sid: message.account_sid,
    api_version: '2010-04-01',
    body: message.body,
    date_created: message.date_created,
    date_sent: null,
    date_updated: message.date_created,
    direction: 'outbound-api',
    error_code: null,
    error_message: null,
    from: message.from,
    messaging_service_sid: null,
    num_media: '0',
    num_segments: String(Math.max(1, Math.ceil(message.body.length / 160))),
    price: null,
    price_unit: 'USD',
    sid: message.sid,
    status: 'queued',
    subresource_uris: { media: uri.replace('.json', '/Media.json') },
    to: message.to,
    uri,
  };
}

export async function startSmsEmulator(options: SmsEmulatorOptions = {}): Promise<RunningSmsEmulator> {
  const messages: EmulatedSms[] = [];
  let failures: { status: number; code: number; times: number } | null = null;

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (req.method === 'GET' && url.pathname === '/emulator/messages') {
      const to = url.searchParams.get('to');
      return sendJson(res, 200, { messages: messages.filter((m) => !to || m.to === to).reverse() });
    }
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(url.pathname);
    if (!match) return twilioError(res, 404, 20404, `The requested resource ${url.pathname} was not found`);
    const accountSid = decodeURIComponent(match[1]);
    const auth = basicAuth(req);
    const credentialsOk =
      auth !== null &&
      auth.user === accountSid &&
      accountSid.startsWith('AC') &&
      auth.password.length > 0 &&
      (options.accountSid === undefined || accountSid === options.accountSid) &&
      (options.authToken === undefined || auth.password === options.authToken);
    if (!credentialsOk) return twilioError(res, 401, 20003, 'Authenticate');

    if (req.method === 'GET') {
      const to = url.searchParams.get('To');
      const page = messages.filter((m) => m.account_sid === accountSid && (!to || m.to === to)).reverse().map(resource);
      return sendJson(res, 200, { messages: page, page: 0, page_size: 50, first_page_uri: url.pathname, next_page_uri: null, previous_page_uri: null, uri: url.pathname + url.search, start: 0, end: page.length });
    }
    if (req.method !== 'POST') return twilioError(res, 405, 20004, 'Method not allowed');
    const form = await readForm(req);
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    const body = form.get('Body') ?? '';
    if (!to) return twilioError(res, 400, 21604, "A 'To' phone number is required.");
    if (!from) return twilioError(res, 400, 21603, "A 'From' phone number is required.");
    if (!body) return twilioError(res, 400, 21602, 'Message body is required.');
    if (!E164.test(to)) return twilioError(res, 400, 21211, `Invalid 'To' Phone Number: ${to}`);
    if (failures && failures.times > 0) {
      failures.times -= 1;
      return twilioError(res, failures.status, failures.code, 'Emulated failure');
    }
    const message: EmulatedSms = {
      sid: `SM${randomBytes(16).toString('hex')}`,
      account_sid: accountSid,
      to,
      from,
      body,
      date_created: new Date().toUTCString(),
    };
    messages.push(message);
    return sendJson(res, 201, resource(message));
  };

  const server = await listen(handler, { port: options.port, host: options.host });
  return {
    url: server.origin,
    messages,
    lastCode(to) {
      const newest = messages.filter((m) => m.to === to).at(-1);
      return newest ? (/\b(\d{6})\b/.exec(newest.body)?.[1] ?? null) : null;
    },
    failNext: (status, code, times = 1) => void (failures = { status, code, times }),
    close: () => server.close(),
  };
}
