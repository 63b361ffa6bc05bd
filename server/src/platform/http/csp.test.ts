// The page's Content-Security-Policy lists the hosts it frames and connects to, never any https: host
// (issue 30 item 13). The payment origins are checked in demo/payments.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envSchema } from '../../env';
import { createTestApp, type TestApp } from '../../test/test-app';

/** The directive's sources from a CSP header. */
const directive = (csp: string, name: string) => (csp.split(';').find((d) => d.trim().startsWith(`${name} `)) ?? '').trim().split(/\s+/).slice(1);

describe('Content-Security-Policy: hosts, not https:', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CSP_EXTRA_ORIGINS: 'https://www.googletagmanager.com, https://*.google-analytics.com' });
  }, 60_000);
  afterAll(() => t?.close());

  it('frames only this host, the payment providers and the video players; connects only to this host, the payment APIs and the extra origins', async () => {
    const res = await t.app.inject({ url: '/api/health', headers: { host: 'pluma.test' } });
    const csp = String(res.headers['content-security-policy']);
    const frame = directive(csp, 'frame-src');
    const connect = directive(csp, 'connect-src');
    for (const list of [frame, connect]) {
      expect(list).not.toContain('https:');
      expect(list).not.toContain('*');
      expect(list).not.toContain('http:');
      expect(list).toEqual(expect.arrayContaining(["'self'", 'https://www.googletagmanager.com', 'https://*.google-analytics.com']));
    }
    expect(frame).toEqual(expect.arrayContaining(['https://www.youtube-nocookie.com', 'https://player.vimeo.com', 'https://js.stripe.com', 'https://www.paypal.com']));
    expect(connect).toEqual(expect.arrayContaining(['ws://pluma.test', 'wss://pluma.test', 'https://api.stripe.com', 'https://*.paypal.com']));
    // Images: this host, data: and blob: (previews), and staff-given addresses on any https host.
    expect(directive(csp, 'img-src')).toEqual(["'self'", 'data:', 'blob:', 'https:']);
    expect(directive(csp, 'default-src')).toEqual(["'self'"]);
    expect(directive(csp, 'object-src')).toEqual(["'none'"]);
  });

  it('refuses CSP_EXTRA_ORIGINS that are not https origins, so nothing else reaches the header', () => {
    for (const bad of ['http://example.com', 'https://example.com/path', "https://a.com; script-src 'unsafe-inline'", "'unsafe-inline'", 'https:', '*']) {
      expect(envSchema.safeParse({ CSP_EXTRA_ORIGINS: bad }).success, bad).toBe(false);
    }
    expect(envSchema.safeParse({ CSP_EXTRA_ORIGINS: 'https://a.example.com:8443,https://*.b.example' }).data?.CSP_EXTRA_ORIGINS).toEqual([
      'https://a.example.com:8443',
      'https://*.b.example',
    ]);
  });
});
