// A real OpenID provider for tests (issue 33 item 4): the `oidc-provider` package on an ephemeral port of
// 127.0.0.1, one confidential client whose redirect URI is the app's callback, PKCE required, and accounts the
// test chooses (email, email_verified, names). Its login and consent steps approve at once as `nextLogin`,
// the account the test says signs in next. `signIn` walks the browser's redirects at the provider with a
// cookie jar and returns the URL the provider sends the browser back to (the app's callback).
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface IssuerAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
}

export interface TestIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, IssuerAccount>;
  /** The subject the next sign-in approves as. */
  nextLogin: string;
  /** Follows an authorization URL at the provider to the redirect back to the app; returns that URL. */
  signIn(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startTestIssuer(options: { redirectUri: string; clientId?: string; clientSecret?: string }): Promise<TestIssuer> {
  const clientId = options.clientId ?? 'pluma-test';
  const clientSecret = options.clientSecret ?? 'pluma-test-client-secret-0123456789';
  const accounts = new Map<string, IssuerAccount>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...key, kid: 'test', use: 'sig', alg: 'RS256' }] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    cookies: { keys: ['pluma-test-issuer-cookie-key'] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, ...accounts.get(sub) }) }),
    // Tokens only as the flow needs them; no refresh tokens.
    issueRefreshToken: () => false,
  });

  const state: TestIssuer = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    nextLogin: '',
    async signIn(authorizationUrl) {
      const jar = new Map<string, string>();
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 10; hop++) {
        if (url.origin !== issuer) return url;
        const response = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const [name, ...value] = pair.split('=');
          jar.set(name.trim(), value.join('='));
        }
        const location = response.headers.get('location');
        if (!location) throw new Error(`the provider answered ${response.status} without a redirect: ${await response.text()}`);
        url = new URL(location, url);
      }
      throw new Error('too many redirects at the provider');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    // Login and consent approve at once, as `nextLogin`.
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          await provider.interactionFinished(req, res, { login: { accountId: state.nextLogin } }, { mergeWithLastSubmission: false });
          return;
        }
        const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      } catch (err) {
        res.statusCode = 500;
        res.end(String(err));
      }
    })();
  });
  return state;
}
