// Calls of phone sign-in (issue 33 item 1): a code by SMS, then the code signs in (a session, or the
// second step for an account with two-factor on, as the password sign-in answers).
import type { PhoneStartResponse } from '@pluma/common/phone-sign-in';
import type { LoginResponse } from '@pluma/common/users';
import { api } from '../../api/instance';
import { currentLanguage } from '../../i18n';
import { deviceTokens } from './trusted-devices';

export const startPhoneSignIn = (phone: string) =>
  api.post<PhoneStartResponse>('/auth/phone/start', { phone, lang: currentLanguage() }, { auth: false });

export const verifyPhoneSignIn = (phone: string, code: string) =>
  api.post<LoginResponse>('/auth/phone/verify', { phone, code, device_tokens: deviceTokens() }, { auth: false });
