// TOTP (RFC 6238) through otpauth: 6 digits, 30-second steps, SHA-1 (what every authenticator app reads).
// A code is accepted one step early or late (clock drift), and never for a step at or before the last
// accepted one (the caller stores it: a code seen over a shoulder cannot be replayed).
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

const PERIOD_S = 30;

function totpOf(secretBase32: string, label = '', issuer = '') {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret: Secret.fromBase32(secretBase32) });
}

/** A new random 160-bit secret, base32 (RFC 4226's recommended size). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URL an app scans, and the same as an SVG QR code. */
export async function totpEnrollment(secretBase32: string, label: string, issuer: string): Promise<{ otpauthUrl: string; qrSvg: string }> {
  const otpauthUrl = totpOf(secretBase32, label, issuer).toString();
  return { otpauthUrl, qrSvg: await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }) };
}

/** The step `code` is valid for now (±1 step), or null when it is not a valid code. */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : TOTP.counter({ period: PERIOD_S, timestamp: now }) + delta;
}
