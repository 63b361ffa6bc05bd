// /reset-password?token= : choose a new password (and confirm it), then the user is signed in.
import { Anchor, Button } from '@mantine/core';
import { useForm } from '@mantine/form';
import { PASSWORD_MIN_LENGTH } from '@pluma/common/constants';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppConfig } from '../../app/config/app-config';
import { authPath } from '../../app/session/paths';
import { useSession } from '../../app/session/session-context';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { resetPassword } from './auth-api';
import { AuthForm, PasswordField } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { useAuthSubmit, validationDetails } from './use-auth-submit';

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const config = useAppConfig();
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const landing = config.on('landing_enabled');
  const { formError, setFormError, submitting, run, showFailure } = useAuthSubmit(token ? null : t('reset.missingToken'));
  const form = useForm({
    initialValues: { password: '', confirm: '' },
    validate: {
      password: (value) => (value.length >= PASSWORD_MIN_LENGTH ? null : t('validation.invalid_password')),
      confirm: (value, values) => (value === values.password ? null : t('validation.password_mismatch')),
    },
  });

  const submit = form.onSubmit(({ password }) =>
    run(
      async () => {
        const response = await resetPassword(token, password);
        session.signIn(response);
        navigate('/', { replace: true });
      },
      (failure) => {
        const passwordError = validationDetails(failure)?.password;
        if (passwordError) form.setErrors({ password: passwordError });
        else showFailure(failure);
      },
    ),
  );

  return (
    <AuthLayout title={t('reset.title')} subtitle={t('reset.subtitle')} testId="reset-password-page">
      <AuthForm onSubmit={submit} submitting={submitting} testId="reset-password-form">
        <ErrorAlert message={formError} onClose={() => setFormError(null)} autoHideMs={0} />
        <PasswordField
          label={t('reset.newPassword')}
          description={t('signup.passwordHint')}
          autoComplete="new-password"
          autoFocus
          disabled={!token}
          {...form.getInputProps('password')}
        />
        <PasswordField label={t('signup.confirmPassword')} autoComplete="new-password" disabled={!token} {...form.getInputProps('confirm')} />
        <Button type="submit" size="md" fullWidth loading={submitting} disabled={!token}>
          {t('reset.submit')}
        </Button>
        <Anchor component={Link} to={authPath('recovery', landing)} ta="center" size="sm">
          {t('reset.requestNew')}
        </Anchor>
      </AuthForm>
    </AuthLayout>
  );
}
