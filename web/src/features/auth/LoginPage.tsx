// Login (spec part 1 §2): email, password with show/hide, forgot-password link, create-account link
// (only when signup_enabled), spinner while signing in.
import { Anchor, Button, Group, Loader, Text } from '@mantine/core';
import type { AuthResponse, LoginResponse } from '@pluma/common/users';
import { useForm } from '@mantine/form';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { tokenStore } from '../../api/instance';
import { useAppConfig } from '../../platform/config/app-config';
import { afterFirstPaint } from '../../platform/first-paint';
import { authPath, safeNextPath } from '../../platform/session/paths';
import { useSession } from '../../platform/session/session-context';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { isChallenge, login, normalizeEmail, type SignInChallenge } from './auth-api';
import type { LoginValues } from './auth-rules';
import { AuthForm, EmailField, PasswordField } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { SsoSignIn } from './sso/SsoSignIn';
import { isPasskeyCancelled, passkeysSupported, signInWithPasskey } from './passkeys';
import { useAuthSubmit, validationDetails } from './use-auth-submit';

// The rules bring zod (~20 KB brotli): loaded once the page shows, so the login's first download stays
// within its budget (bench/bundle-size.mjs). Without them (offline) the server still checks.
const loadRules = () => import('./auth-rules');
const validateLogin = (values: LoginValues) => loadRules().then(({ loginErrors }) => loginErrors(values), () => ({}));
// issue 33 item 1: sign in with a code by SMS, loaded only when chosen.
const PhoneSignIn = lazy(() => import('./PhoneSignIn'));
// The second step (issue 33) shows only after a right password: fetched once the page shows, not before.
const loadTwoFactorStep = () => import('./TwoFactorStep');
const TwoFactorStep = lazy(() => loadTwoFactorStep().then(({ TwoFactorStep: Step }) => ({ default: Step })));

export default function LoginPage() {
  const { t } = useTranslation();
  const config = useAppConfig();
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const landing = config.on('landing_enabled');
  const { formErrorText, setFormError, submitting, run, showFailure } = useAuthSubmit();
  const form = useForm<LoginValues>({ initialValues: { email: '', password: '' }, validate: validateLogin });
  const inputProps = useLocalizedInputProps(form);
  // Set when the password was right and the account asks for its second factor (issue 33).
  const [challenge, setChallenge] = useState<SignInChallenge | null>(null);
  const [withPhone, setWithPhone] = useState(false);
  // Once the page is painted: fetched earlier, the rules would share the network and CPU with it.
  useEffect(() => void afterFirstPaint().then(() => Promise.all([loadRules(), loadTwoFactorStep()])).catch(() => undefined), []);

  const finish = (response: AuthResponse) => {
    session.signIn(response);
    const next = safeNextPath(params.get('next'));
    if (next) navigate(next, { replace: true });
  };

  // Single sign-on (issue 33 item 4): the callback's code gives a session or the second-factor challenge.
  const [ssoBusy, setSsoBusy] = useState(false);
  const onSsoResponse = useCallback((response: LoginResponse) => {
    if (isChallenge(response)) setChallenge(response);
    else finish(response);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const onSsoError = useCallback((error: { key: string } | { failure: unknown }) => setFormError('key' in error ? error : { failure: error.failure, options: { showValidation: true } }), [setFormError]);

  const submit = form.onSubmit((values) =>
    run(
      async () => {
        const response = await login(normalizeEmail(values.email), values.password);
        if (isChallenge(response)) setChallenge(response);
        else finish(response);
      },
      (error) => {
        const details = validationDetails(error);
        if (error instanceof ApiError && error.status === 401) {
          // spec part 1 §8: wrong email or password → the message, and sign out.
          tokenStore.clear();
          setFormError({ key: 'auth.invalidCredentials' });
        } else if (details) {
          form.setErrors(details);
        } else {
          showFailure(error);
        }
      },
    ),
  );

  // Issue 33 item 3: a passkey signs in on its own, no email asked (a discoverable credential).
  const withPasskey = () =>
    void run(
      async () => finish(await signInWithPasskey()),
      (error) => (isPasskeyCancelled(error) ? setFormError({ key: 'passkeys.cancelled' }) : showFailure(error)),
    );

  if (challenge) {
    return (
      <AuthLayout title={t('twoFactor.title')} subtitle={t('twoFactor.subtitle')} testId="login-page">
        <Suspense fallback={<StepLoader label={t('common.loading')} />}>
          <TwoFactorStep challenge={challenge.challenge} methods={challenge.methods} onSignedIn={finish} onCancel={() => setChallenge(null)} />
        </Suspense>
      </AuthLayout>
    );
  }

  if (withPhone) {
    return (
      <AuthLayout title={t('phoneSignIn.title')} subtitle={t('phoneSignIn.subtitle')} testId="login-page">
        <Suspense fallback={<StepLoader label={t('phoneSignIn.loading')} />}>
          <PhoneSignIn onSignedIn={finish} onChallenge={setChallenge} onCancel={() => setWithPhone(false)} />
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('auth.loginTitle')} subtitle={t('auth.loginSubtitle', { app: config.get('app_name') })} testId="login-page">
      <AuthForm onSubmit={submit} submitting={submitting} testId="login-form">
        <ErrorAlert message={formErrorText} onClose={() => setFormError(null)} />
        <EmailField placeholder={t('auth.emailPlaceholder')} data-autofocus autoFocus {...inputProps('email')} />
        <PasswordField label={t('auth.password')} autoComplete="current-password" {...inputProps('password')} />
        <Group justify="flex-end">
          <Anchor component={Link} to={authPath('recovery', landing)} size="sm">
            {t('auth.forgotPassword')}
          </Anchor>
        </Group>
        <Button type="submit" size="md" fullWidth loading={submitting || ssoBusy} loaderProps={{ 'aria-label': t('auth.signingIn') }}>
          {t('auth.loginButton')}
        </Button>
        <Button variant="default" size="md" fullWidth onClick={() => setWithPhone(true)} data-testid="phone-sign-in-option">
          {t('phoneSignIn.option')}
        </Button>
        {passkeysSupported() && (
          <Button type="button" size="md" fullWidth variant="default" onClick={withPasskey} disabled={submitting} data-testid="passkey-sign-in">
            {t('passkeys.signIn')}
          </Button>
        )}
        <SsoSignIn onResponse={onSsoResponse} onError={onSsoError} onBusy={setSsoBusy} />
        {config.on('signup_enabled') && (
          <Text ta="center" size="sm">
            {t('auth.noAccount')}{' '}
            <Anchor component={Link} to={authPath('signup', landing)} fw={600}>
              {t('auth.createAccount')}
            </Anchor>
          </Text>
        )}
      </AuthForm>
    </AuthLayout>
  );
}

/** While a step of the sign-in (phone, second factor) loads. */
function StepLoader({ label }: { label: string }) {
  return <Loader size="sm" mx="auto" display="block" aria-label={label} />;
}
