import { describe, expect, it } from 'vitest';
import { emptySignupValues, signupErrors, signupPayload, type SignupValues } from './signup-validation';

const valid: SignupValues = {
  ...emptySignupValues,
  name: 'Ana',
  last_name: 'García',
  email: 'Ana@Example.com ',
  password: 'secret1',
  confirm_password: 'secret1',
  phone: '555 123 4567',
};

describe('signup rules (spec part 1 §5)', () => {
  it('accepts a complete form', () => {
    expect(signupErrors(valid)).toEqual({});
  });

  it('asks for the name, email and phone when missing', () => {
    expect(signupErrors({ ...valid, name: '  ', email: '', phone: '' })).toEqual({
      name: 'validation.name_required',
      email: 'validation.email_required',
      phone: 'validation.phone_required',
    });
  });

  it('flags an invalid name, last name, email, password and phone with the schema messages', () => {
    expect(signupErrors({ ...valid, name: 'x'.repeat(101) }).name).toBe('validation.invalid_name');
    expect(signupErrors({ ...valid, last_name: '' }).last_name).toBe('validation.invalid_last_name');
    expect(signupErrors({ ...valid, email: 'ana@' }).email).toBe('validation.invalid_email');
    expect(signupErrors({ ...valid, password: '12345', confirm_password: '12345' }).password).toBe('validation.invalid_password');
    expect(signupErrors({ ...valid, phone: '12345' }).phone).toBe('validation.invalid_phone');
  });

  it('accepts the phone shapes of the spec: optional plus, 3, 3, then 4 to 6 digits', () => {
    for (const phone of ['5551234567', '+525551234567', '555-123-4567', '555 123 456789']) {
      expect(signupErrors({ ...valid, phone }).phone, phone).toBeUndefined();
    }
    for (const phone of ['555 123 456', '555 123 4567890', 'phone']) {
      expect(signupErrors({ ...valid, phone }).phone, phone).toBe('validation.invalid_phone');
    }
  });

  it('catches a confirmation that does not match', () => {
    expect(signupErrors({ ...valid, confirm_password: 'secret2' })).toEqual({ confirm_password: 'validation.password_mismatch' });
  });

  it("sends the selected reason, or the free text for 'Other'", () => {
    expect(signupPayload({ ...valid, reason: 'Instagram Ad' }, 'es')).toMatchObject({ signup_reason: 'Instagram Ad', lang: 'es' });
    expect(signupPayload({ ...valid, reason: 'Other', other_reason: ' A podcast ' }, 'en').signup_reason).toBe('A podcast');
    expect(signupPayload({ ...valid, reason: 'Other', other_reason: '' }, 'en').signup_reason).toBe('Other');
    expect(signupPayload(valid, 'en').signup_reason).toBeNull();
    expect(signupPayload(valid, 'en')).not.toHaveProperty('confirm_password');
  });
});
