// Rules of the password-change form: the shared schema of common/src/auth.ts (as the server checks it)
// plus the confirmation. Errors are i18n keys; the form words them when drawn.
import { changePasswordRequest } from '@pluma/common/auth';

export interface PasswordChangeValues {
  current_password: string;
  password: string;
  confirm: string;
}

export const emptyPasswordChange: PasswordChangeValues = { current_password: '', password: '', confirm: '' };

/** Where the Profile page's password form is (e.g. for a banner asking a new admin to change theirs). */
export const PASSWORD_CHANGE_PATH = '/profile#password';

export function passwordChangeErrors(values: PasswordChangeValues): Partial<Record<keyof PasswordChangeValues, string>> {
  const errors: Partial<Record<keyof PasswordChangeValues, string>> = {};
  const result = changePasswordRequest.safeParse({ current_password: values.current_password, password: values.password });
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = issue.path[0] === 'current_password' ? 'current_password' : 'password';
      // The schema's messages are message keys of common/src/messages.ts (mirrored under validation.*).
      errors[field] ??= field === 'current_password' ? 'auth.passwordRequired' : `validation.${issue.message}`;
    }
  }
  if (!errors.password && values.confirm !== values.password) errors.confirm = 'validation.password_mismatch';
  return errors;
}
