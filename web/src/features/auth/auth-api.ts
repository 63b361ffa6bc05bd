// Calls of the sign-in screens (spec part 1 §7; DESIGN.md §4 "Auth").
import type { SignupRequest } from '@pluma/common/auth';
import type { AuthResponse } from '@pluma/common/users';
import { api } from '../../api/instance';

export const login = (email: string, password: string) => api.post<AuthResponse>('/auth/login', { email, password }, { auth: false });

export const signup = (body: SignupRequest) => api.post<AuthResponse>('/auth/signup', body, { auth: false });

export const sendResetPasswordLink = (email: string) =>
  api.post<{ message: string }>('/users/sendResetPasswordLink', { email }, { auth: false });

export const resetPassword = (token: string, password: string) =>
  api.post<AuthResponse>('/auth/reset-password', { token, password }, { auth: false });

/** spec part 1 §5: recovery lowercases and trims the email. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();
