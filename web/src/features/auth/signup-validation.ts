// Signup form rules (spec part 1 §5), using the shared schema of common/src/auth.ts so the browser and
// the server agree. Errors are i18n keys; the form translates them.
import { signupRequest, type SignupRequest } from '@pluma/common/auth';
import { SIGNUP_REASONS, type Lang } from '@pluma/common/constants';

export type SignupReason = (typeof SIGNUP_REASONS)[number];

export interface SignupValues {
  name: string;
  last_name: string;
  email: string;
  password: string;
  confirm_password: string;
  phone: string;
  reason: SignupReason | '';
  other_reason: string;
}

export type SignupField = keyof SignupValues;

export const emptySignupValues: SignupValues = {
  name: '',
  last_name: '',
  email: '',
  password: '',
  confirm_password: '',
  phone: '',
  reason: '',
  other_reason: '',
};

/** spec part 1 §2: choosing Other sends the free text as the reason. */
export function signupPayload(values: SignupValues, lang: Lang): SignupRequest {
  const reason = values.reason === 'Other' ? values.other_reason.trim() || 'Other' : values.reason || null;
  return {
    name: values.name,
    last_name: values.last_name,
    email: values.email,
    password: values.password,
    phone: values.phone,
    signup_reason: reason,
    lang,
  };
}

/** Request field names → form fields, for the schema's issues here and the server's 400 details. */
export const SIGNUP_FIELD_OF: Partial<Record<string, SignupField>> = {
  name: 'name',
  last_name: 'last_name',
  email: 'email',
  password: 'password',
  phone: 'phone',
  signup_reason: 'other_reason',
};

/** Field → i18n key of the first problem, empty when the form can be sent. */
export function signupErrors(values: SignupValues, lang: Lang = 'en'): Partial<Record<SignupField, string>> {
  const errors: Partial<Record<SignupField, string>> = {};
  const result = signupRequest.safeParse(signupPayload(values, lang));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = SIGNUP_FIELD_OF[String(issue.path[0])];
      // The schema's messages are message keys of common/src/messages.ts (mirrored under validation.*).
      if (field && !errors[field]) errors[field] = `validation.${issue.message}`;
    }
  }
  // spec part 1 §5: the signup action asks for the name, email and phone when they are missing.
  if (!values.name.trim()) errors.name = 'validation.name_required';
  if (!values.email.trim()) errors.email = 'validation.email_required';
  if (!values.phone.trim()) errors.phone = 'validation.phone_required';
  // The spec collects the confirmation without comparing it; a mismatch is caught here before sending.
  if (!errors.password && values.confirm_password !== values.password) errors.confirm_password = 'validation.password_mismatch';
  return errors;
}
