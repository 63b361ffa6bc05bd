// The first admin's session with the second factor staff need for the back office (issue 33): TOTP turned
// on with a code computed as an authenticator app would, then a sign-in as a remembered device.
import { Secret, TOTP } from 'otpauth';

async function post(baseUrl, path, body, token) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
  return json;
}

/** A bearer token of the admin `email`, having passed a second factor. */
export async function adminToken(baseUrl, email, password) {
  const { token: first } = await post(baseUrl, '/api/auth/login', { email, password });
  const setup = await post(baseUrl, '/api/auth/two-factor/setup', {}, first);
  if (typeof setup?.secret !== 'string') throw new Error(`two-factor setup gave no secret: ${JSON.stringify(setup).slice(0, 200)}`);
  const code = new TOTP({ secret: Secret.fromBase32(setup.secret), digits: 6, period: 30 }).generate();
  const { device_token: device } = await post(baseUrl, '/api/auth/two-factor/confirm', { code, remember_device: true }, first);
  const { token } = await post(baseUrl, '/api/auth/login', { email, password, device_tokens: [device] });
  return token;
}
