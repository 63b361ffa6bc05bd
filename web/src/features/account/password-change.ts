// Rules of the password-change form: the shared schema of common/src/auth.ts (as the server checks it,
// ui/form-rules.tsx) plus the confirmation. Errors are i18n keys; the form words them when drawn.
import { changePasswordRequest } from '@pluma/common/auth';
import { formRules } from '../../ui/form-rules';

export interface PasswordChangeValues {
  current_password: string;
  password: string;
  confirm: string;
}

export const emptyPasswordChange: PasswordChangeValues = { current_password: '', password: '', confirm: '' };

/** Where the Profile page's password form is (e.g. for a banner asking a new admin to change theirs). */
export const PASSWORD_CHANGE_PATH = '/profile#password';

export const passwordChangeErrors = formRules<PasswordChangeValues>({
  schema: changePasswordRequest,
  required: { current_password: 'auth.passwordRequired' },
  confirm: { field: 'confirm', of: 'password' },
});
