// Pieces the sign-in screens share: the form frame and the email and password fields.
import { PasswordInput, Stack, TextInput, type PasswordInputProps, type TextInputProps } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface AuthFormProps {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitting: boolean;
  testId: string;
  children: ReactNode;
}

/** The form, busy while it is being sent; fields are checked by the form itself, not the browser. */
export function AuthForm({ onSubmit, submitting, testId, children }: AuthFormProps) {
  return (
    <form onSubmit={onSubmit} noValidate aria-busy={submitting} data-testid={testId}>
      <Stack gap="md">{children}</Stack>
    </form>
  );
}

export function EmailField(props: TextInputProps) {
  const { t } = useTranslation();
  return <TextInput label={t('auth.email')} type="email" autoComplete="email" inputMode="email" required {...props} />;
}

/** A required password input with the show/hide button (spec part 1 §2). */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation();
  return <PasswordInput required visibilityToggleButtonProps={{ 'aria-label': t('auth.togglePassword') }} {...props} />;
}
