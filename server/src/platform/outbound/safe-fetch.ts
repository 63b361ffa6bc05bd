// The one way to call a URL that a user or an admin can configure (webhooks, and later any other):
// DESIGN.md §6 "One outbound-HTTP helper guards every URL". Plain fetch to such URLs is not allowed.
//
// 1. http/https only; 2. the host is resolved once and EVERY address must be public (unless the host
// is listed in OUTBOUND_ALLOW_HOSTS); 3. the connection goes to the address that was checked (a custom
// `lookup`), so a DNS answer that changes between check and connect (rebinding) cannot redirect us;
// 4. redirects are never followed; 5. 10 s timeout and a response size cap.
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { ErrorIds } from '@pluma/common/errors';
import type { AppContext } from '../../context';
import { AppError } from '../http/errors';
import { isPublicAddress } from './address-policy';

export const OUTBOUND_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

export interface SafeFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs?: number;
  maxResponseBytes?: number;
  signal?: AbortSignal;
  /**
   * 'manual': a 3xx is returned (with its Location) instead of refused, so a caller may follow it by calling
   * safeFetch again: every hop is checked like the first (web pages: features/web-search/pages.ts).
   */
  redirect?: 'refuse' | 'manual';
}

export const outboundRefused = (reason: string) =>
  new AppError(400, ErrorIds.outboundRefused, 'outbound_url_refused', {}, { code: reason });
const outboundFailed = (reason: string) => new AppError(502, ErrorIds.outboundFailed, 'outbound_request_failed', {}, { code: reason });

interface Target {
  url: URL;
  host: string;
  address: string;
  family: 4 | 6;
}

/** Parses and checks a URL, resolving its host; throws `outbound_url_refused` for anything not allowed. */
export async function resolveOutboundTarget(ctx: AppContext, rawUrl: string): Promise<Target> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw outboundRefused('invalid_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw outboundRefused('scheme');
  // WHATWG parsing already turns http://2130706433/ or http://0x7f.1/ into 127.0.0.1.
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!host) throw outboundRefused('host');
  const allowed = ctx.env.OUTBOUND_ALLOW_HOSTS.includes(host) || ctx.env.OUTBOUND_ALLOW_HOSTS.includes(url.hostname.toLowerCase());

  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await dnsLookup(host, { all: true, verbatim: true });
    } catch {
      throw outboundFailed('dns');
    }
  }
  if (addresses.length === 0) throw outboundFailed('dns');
  // Every answer must be public: a name that also resolves to a private address is refused outright.
  if (!allowed && !addresses.every((a) => isPublicAddress(a.address))) throw outboundRefused('address');
  const chosen = addresses[0];
  return { url, host, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/** A `lookup` that always answers with the checked address (DNS-rebinding protection). */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

/**
 * Calls a configurable URL safely and returns the response (body fully read, capped).
 * Throws AppError 400 `outbound_url_refused` for refused URLs and redirects,
 * 502 `outbound_request_failed` for network errors and timeouts.
 */
export async function safeFetch(ctx: AppContext, rawUrl: string, init: SafeFetchInit = {}): Promise<Response> {
  const target = await resolveOutboundTarget(ctx, rawUrl);
  const timeout = AbortSignal.timeout(init.timeoutMs ?? OUTBOUND_TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  const maxBytes = init.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const body = typeof init.body === 'string' ? Buffer.from(init.body) : init.body;

  const { status, headers, data } = await new Promise<{ status: number; headers: Headers; data: Buffer }>((resolve, reject) => {
    const client = target.url.protocol === 'https:' ? https : http;
    const request = client.request(
      {
        protocol: target.url.protocol,
        hostname: target.host,
        port: target.url.port || undefined,
        path: `${target.url.pathname}${target.url.search}`,
        method: init.method ?? 'GET',
        headers: { 'user-agent': 'Pluma-Webhook/1.0', ...init.headers, ...(body ? { 'content-length': String(body.byteLength) } : {}) },
        lookup: pinnedLookup(target.address, target.family),
        // TLS still verifies the certificate against the host name, not the pinned address.
        servername: isIP(target.host) ? undefined : target.host,
        // A fresh agent: no pooled socket from another request is reused.
        agent: false,
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > maxBytes) {
            response.destroy();
            reject(outboundFailed('response_too_large'));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (Array.isArray(value)) value.forEach((v) => responseHeaders.append(name, v));
            else if (value != null) responseHeaders.set(name, value);
          }
          resolve({ status: response.statusCode ?? 0, headers: responseHeaders, data: Buffer.concat(chunks) });
        });
        response.on('error', () => reject(outboundFailed(signal.aborted ? 'timeout' : 'network')));
      },
    );
    request.on('error', () => reject(outboundFailed(signal.aborted ? 'timeout' : 'network')));
    if (body) request.write(body);
    request.end();
  });

  if (status >= 300 && status < 400 && init.redirect !== 'manual') throw new AppError(400, ErrorIds.outboundRefused, 'outbound_redirect_refused', {}, { code: 'redirect' });
  if (status < 200 || status > 599) throw outboundFailed('status');
  const nullBody = status === 204 || status === 205 || status === 304;
  return new Response(nullBody ? null : data, { status, headers });
}
