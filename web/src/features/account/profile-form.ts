// The profile form (spec part 1 §2, §5): its values, the request they make, and its rules — the schema
// of common/src/users.ts the server checks (ui/form-rules.tsx).
import { normalizeProfilePhone, updateProfileRequest, type CurrentUser, type UpdateProfileRequest } from '@pluma/common/users';
import { formRules } from '../../ui/form-rules';

export interface ProfileValues {
  name: string;
  last_name: string;
  company: string;
  phone: string;
}

export const profileValues = (user: CurrentUser): ProfileValues => ({
  name: user.name,
  last_name: user.last_name,
  company: user.company ?? '',
  phone: user.phone ?? '',
});

/** spec part 1 §5: the phone is kept to 10 digits; an empty company or phone is cleared. */
export const profilePayload = (values: ProfileValues): UpdateProfileRequest => ({
  name: values.name.trim(),
  last_name: values.last_name.trim(),
  company: values.company.trim() || null,
  phone: values.phone ? normalizeProfilePhone(values.phone) : null,
});

export const profileErrors = formRules<ProfileValues>({
  schema: updateProfileRequest,
  payload: profilePayload,
  required: { name: 'validation.name_required' },
});
