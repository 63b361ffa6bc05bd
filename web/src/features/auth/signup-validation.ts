// Signup form rules (spec part 1 §5), using the shared schema of common/src/auth.ts so the browser and
// the server agree (ui/form-rules.tsx). Errors are i18n keys; the form words them when drawn.
import { signupRequest, type SignupRequest } from '@pluma/common/auth';
import { SIGNUP_REASONS, type Lang } from '@pluma/common/constants';
import { formRules } from '../../ui/form-rules';

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

/** spec part 1 §5: the schema's rules; the signup action asks for the name, email and phone when they are
 *  missing; the spec collects the confirmation without comparing it, a mismatch is caught before sending. */
const signupRules = (lang: Lang) =>
  formRules<SignupValues>({
    schema: signupRequest,
    payload: (values) => signupPayload(values, lang),
    fieldOf: SIGNUP_FIELD_OF,
    required: { name: 'validation.name_required', email: 'validation.email_required', phone: 'validation.phone_required' },
    confirm: { field: 'confirm_password', of: 'password' },
  });

/** Field → i18n key of the first problem, empty when the form can be sent. */
export const signupErrors = (values: SignupValues, lang: Lang = 'en') => signupRules(lang)(values);
