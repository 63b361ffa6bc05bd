// Calls of the sign-in screens (spec part 1 §7; DESIGN.md §4 "Auth").
import type { SignupRequest } from '@pluma/common/auth';
import type { AuthResponse, LoginResponse, SignInChallenge } from '@pluma/common/users';
import { api } from '../../api/instance';
import { deviceTokens } from './trusted-devices';

/** A session, or for an account with two-factor on a challenge to finish with verifyTwoFactor. */
export const login = (email: string, password: string) =>
  api.post<LoginResponse>('/auth/login', { email, password, device_tokens: deviceTokens() }, { auth: false });

/** A password sign-in's second step: its challenge and the account's second factors. */
export type { SignInChallenge };
export const isChallenge = (response: LoginResponse): response is SignInChallenge => 'two_factor_required' in response;

export const verifyTwoFactor = (challenge: string, code: string, rememberDevice: boolean) =>
  api.post<AuthResponse & { device_token?: string }>('/auth/two-factor/verify', { challenge, code, remember_device: rememberDevice }, { auth: false });

export interface TwoFactorStatus {
  enabled: boolean;
  required: boolean;
  verified: boolean;
  recovery_codes_left: number;
}
/** "Confirm it's you" before a factor change: the second step's challenge for the signed-in user. */
export const startReconfirm = () => api.post<SignInChallenge>('/auth/two-factor/reconfirm');
/** Ends the session of `token` on the server (a session this browser has just replaced). */
export const endSession = (token: string) => api.post<void>('/auth/logout', undefined, { auth: false, headers: { Authorization: `Bearer ${token}` } });
export const getTwoFactorStatus = () => api.get<TwoFactorStatus>('/auth/two-factor');
export const startTwoFactorSetup = () => api.post<{ secret: string; otpauth_url: string; qr_svg: string }>('/auth/two-factor/setup');
export const confirmTwoFactor = (code: string, rememberDevice: boolean) =>
  api.post<{ recovery_codes: string[]; device_token?: string }>('/auth/two-factor/confirm', { code, remember_device: rememberDevice });
export const disableTwoFactor = (code: string) => api.post<void>('/auth/two-factor/disable', { code });
export const newRecoveryCodes = (code: string) => api.post<{ recovery_codes: string[] }>('/auth/two-factor/recovery-codes', { code });

export const signup = (body: SignupRequest) => api.post<AuthResponse>('/auth/signup', body, { auth: false });

export const sendResetPasswordLink = (email: string) =>
  api.post<{ message: string }>('/users/sendResetPasswordLink', { email }, { auth: false });

export const resetPassword = (token: string, password: string) =>
  api.post<LoginResponse>('/auth/reset-password', { token, password }, { auth: false });

/** spec part 1 §5: recovery lowercases and trims the email. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

// Passkeys (issue 33 item 3): each WebAuthn exchange is options, then the browser's credential (passkeys.ts).
export type WebAuthnOptions = Record<string, unknown>;
export interface Passkey {
  passkey_id: number;
  name: string;
  createdAt: string;
  last_used_at: string | null;
}
export const listPasskeys = () => api.get<{ passkeys: Passkey[] }>('/auth/passkeys');
export const passkeyRegistrationOptions = () => api.post<WebAuthnOptions>('/auth/passkeys/register/options');
export const registerPasskey = (name: string, credential: unknown) => api.post<Passkey>('/auth/passkeys/register', { name, credential });
export const renamePasskey = (passkeyId: number, name: string) => api.put<Passkey>(`/auth/passkeys/${passkeyId}`, { name });
export const deletePasskey = (passkeyId: number) => api.delete<void>(`/auth/passkeys/${passkeyId}`);
export const passkeySignInOptions = () => api.post<WebAuthnOptions>('/auth/passkeys/sign-in/options', {}, { auth: false });
export const passkeySignIn = (credential: unknown) => api.post<AuthResponse>('/auth/passkeys/sign-in', { credential }, { auth: false });
export const passkeySecondFactorOptions = (challenge: string) => api.post<WebAuthnOptions>('/auth/two-factor/passkey/options', { challenge }, { auth: false });
export const passkeySecondFactor = (challenge: string, credential: unknown, rememberDevice: boolean) =>
  api.post<AuthResponse & { device_token?: string }>('/auth/two-factor/passkey', { challenge, credential, remember_device: rememberDevice }, { auth: false });
