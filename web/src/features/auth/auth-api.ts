// Calls of the sign-in screens (spec part 1 §7; DESIGN.md §4 "Auth").
import type { SignupRequest } from '@pluma/common/auth';
import type { AuthResponse, LoginResponse } from '@pluma/common/users';
import { api } from '../../api/instance';
import { deviceTokens } from './trusted-devices';

/** A session, or for an account with two-factor on a challenge to finish with verifyTwoFactor. */
export const login = (email: string, password: string) =>
  api.post<LoginResponse>('/auth/login', { email, password, device_tokens: deviceTokens() }, { auth: false });

export const isChallenge = (response: LoginResponse): response is Extract<LoginResponse, { two_factor_required: true }> => 'two_factor_required' in response;

export const verifyTwoFactor = (challenge: string, code: string, rememberDevice: boolean) =>
  api.post<AuthResponse & { device_token?: string }>('/auth/two-factor/verify', { challenge, code, remember_device: rememberDevice }, { auth: false });

export interface TwoFactorStatus {
  enabled: boolean;
  required: boolean;
  verified: boolean;
  recovery_codes_left: number;
}
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
