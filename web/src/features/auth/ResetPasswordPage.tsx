// /reset-password?token=&lang= : choose a new password (and confirm it), then the user is signed in.
// The page opens in `lang`, the language of the email that carried the link (the server puts the user's
// language there), whatever this browser had chosen.
import { Anchor, Button } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AuthResponse } from '@pluma/common/users';
import { useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppConfig } from '../../platform/config/app-config';
import { authPath } from '../../platform/session/paths';
import { useSession } from '../../platform/session/session-context';
import { applyLanguage, isLang } from '../../i18n';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { isChallenge, resetPassword, type SignInChallenge } from './auth-api';
import { TwoFactorStep } from './TwoFactorStep';
import { resetPasswordErrors, type ResetPasswordValues } from './auth-rules';
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
  const mailLang = params.get('lang');
  const landing = config.on('landing_enabled');
  const { formErrorText, setFormError, submitting, run, showFailure } = useAuthSubmit(token ? null : { key: 'reset.missingToken' });
  const form = useForm<ResetPasswordValues>({ initialValues: { password: '', confirm: '' }, validate: resetPasswordErrors });
  const inputProps = useLocalizedInputProps(form);

  // Before the first paint, so the page never flashes in another language. Not saved on this browser:
  // it may be someone else's, and once signed in the profile's language applies anyway.
  useLayoutEffect(() => {
    if (isLang(mailLang)) applyLanguage(mailLang, { persist: false });
  }, [mailLang]);

  const [challenge, setChallenge] = useState<SignInChallenge | null>(null);
  const finish = (response: AuthResponse) => {
    session.signIn(response);
    navigate('/', { replace: true });
  };

  const submit = form.onSubmit(({ password }) =>
    run(
      async () => {
        const response = await resetPassword(token, password);
        // An account with two-factor on still gives its code (issue 33): the new password is set.
        if (isChallenge(response)) setChallenge(response);
        else finish(response);
      },
      (failure) => {
        const passwordError = validationDetails(failure)?.password;
        if (passwordError) form.setErrors({ password: passwordError });
        else showFailure(failure);
      },
    ),
  );

  if (challenge) {
    return (
      <AuthLayout title={t('twoFactor.title')} subtitle={t('twoFactor.subtitle')} testId="reset-password-page">
        <TwoFactorStep challenge={challenge.challenge} methods={challenge.methods} onSignedIn={finish} onCancel={() => navigate('/', { replace: true })} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('reset.title')} subtitle={t('reset.subtitle')} testId="reset-password-page">
      <AuthForm onSubmit={submit} submitting={submitting} testId="reset-password-form">
        <ErrorAlert message={formErrorText} onClose={() => setFormError(null)} autoHideMs={0} />
        <PasswordField
          label={t('reset.newPassword')}
          description={t('signup.passwordHint')}
          autoComplete="new-password"
          autoFocus
          disabled={!token}
          {...inputProps('password')}
        />
        <PasswordField label={t('signup.confirmPassword')} autoComplete="new-password" disabled={!token} {...inputProps('confirm')} />
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
