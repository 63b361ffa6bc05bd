// Rules of the sign-in forms: the request schemas of common/src/auth.ts, as the server checks them
// (ui/form-rules.tsx), plus how an empty field is asked for and the password confirmation.
import { emailRequest, loginRequest, resetPasswordRequest } from '@pluma/common/auth';
import { formRules } from '../../ui/form-rules';

export interface LoginValues {
  email: string;
  password: string;
}

export const loginErrors = formRules<LoginValues>({
  schema: loginRequest,
  required: { email: 'auth.emailRequired', password: 'auth.passwordRequired' },
});

export const recoveryErrors = formRules<{ email: string }>({ schema: emailRequest, required: { email: 'auth.emailRequired' } });

export interface ResetPasswordValues {
  password: string;
  confirm: string;
}

/** The new password and its confirmation; the token comes from the link and is the server's to judge. */
export const resetPasswordErrors = formRules<ResetPasswordValues>({
  schema: resetPasswordRequest,
  fieldOf: { password: 'password' },
  confirm: { field: 'confirm', of: 'password' },
});
