// Login (spec part 1 §2): email, password with show/hide, forgot-password link, create-account link
// (only when signup_enabled), spinner while signing in.
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { tokenStore } from '../../api/instance';
import { useAppConfig } from '../../app/config/app-config';
import { authPath, safeNextPath } from '../../app/session/paths';
import { useSession } from '../../app/session/session-context';
import { describeError } from '../../ui/error-handler';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { login, looksLikeEmail, normalizeEmail } from './auth-api';
import { AuthLayout } from './AuthLayout';

export default function LoginPage() {
  const { t } = useTranslation();
  const config = useAppConfig();
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const landing = config.on('landing_enabled');
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (!value.trim() ? t('auth.emailRequired') : looksLikeEmail(value) ? null : t('validation.invalid_email')),
      password: (value) => (value ? null : t('auth.passwordRequired')),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    setSubmitting(true);
    try {
      const response = await login(normalizeEmail(values.email), values.password);
      session.signIn(response);
      const next = safeNextPath(params.get('next'));
      if (next) navigate(next, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        // spec part 1 §8: wrong email or password → the message, and sign out.
        tokenStore.clear();
        setFormError(error.body?.message || t('auth.invalidCredentials'));
      } else if (error instanceof ApiError && error.status === 400 && Object.keys(error.details).length > 0) {
        form.setErrors(error.details);
      } else {
        const outcome = describeError(error, t, { showValidation: true });
        if (outcome.kind === 'alert') setFormError(outcome.message);
      }
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <AuthLayout title={t('auth.loginTitle')} subtitle={t('auth.loginSubtitle', { app: config.get('app_name') })} testId="login-page">
      <form onSubmit={submit} noValidate aria-busy={submitting} data-testid="login-form">
        <Stack gap="md">
          <ErrorAlert message={formError} onClose={() => setFormError(null)} />
          <TextInput
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder={t('auth.emailPlaceholder')}
            data-autofocus
            autoFocus
            required
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label={t('auth.password')}
            autoComplete="current-password"
            required
            visibilityToggleButtonProps={{ 'aria-label': t('auth.togglePassword') }}
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end">
            <Anchor component={Link} to={authPath('recovery', landing)} size="sm">
              {t('auth.forgotPassword')}
            </Anchor>
          </Group>
          <Button type="submit" size="md" fullWidth loading={submitting} loaderProps={{ 'aria-label': t('auth.signingIn') }}>
            {t('auth.loginButton')}
          </Button>
          {config.on('signup_enabled') && (
            <Text ta="center" size="sm">
              {t('auth.noAccount')}{' '}
              <Anchor component={Link} to={authPath('signup', landing)} fw={600}>
                {t('auth.createAccount')}
              </Anchor>
            </Text>
          )}
        </Stack>
      </form>
    </AuthLayout>
  );
}
