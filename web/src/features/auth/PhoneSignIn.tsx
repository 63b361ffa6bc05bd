// Sign in with a code by SMS (issue 33 item 1; spec part 1 §7 "phone sign-in"): the number, then the
// 6-digit code (the browser may fill it from the message: autocomplete one-time-code), with a resend that
// counts down. A right code answers like the password sign-in: a session, or the two-factor step, which
// the login page shows. Loaded only when chosen, so the login page's first download stays within budget.
import { Anchor, Button, Group, Text } from '@mantine/core';
import { isSignInPhone, PHONE_CODE_LENGTH } from '@pluma/common/phone-sign-in';
import type { AuthResponse, LoginResponse } from '@pluma/common/users';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { isChallenge, type SignInChallenge } from './auth-api';
import { AuthForm } from './AuthForm';
import { CodeField } from './CodeField';
import { startPhoneSignIn, verifyPhoneSignIn } from './phone-api';
import { PhoneField } from './PhoneField';
import { useAuthSubmit } from './use-auth-submit';

export interface PhoneSignInProps {
  onSignedIn: (response: AuthResponse) => void;
  /** The code was right and the account asks for its second factor. */
  onChallenge: (challenge: SignInChallenge) => void;
  onCancel: () => void;
}

/** Seconds left before another code may be asked for; counts down once a second. */
function useCountdown() {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, setLeft] as const;
}

export default function PhoneSignIn({ onSignedIn, onChallenge, onCancel }: PhoneSignInProps) {
  const { t } = useTranslation();
  const { formErrorText, setFormError, submitting, run, showFailure } = useAuthSubmit();
  const [phone, setPhone] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  const [resendIn, setResendIn] = useCountdown();

  const send = (number: string, again: boolean) =>
    run(async () => {
      const started = await startPhoneSignIn(number);
      setSentTo(number);
      setResent(again);
      setResendIn(started.resend_in);
    }, showFailure);

  const submitPhone = (event: FormEvent) => {
    event.preventDefault();
    const number = phone.trim();
    if (!isSignInPhone(number)) {
      setPhoneError('phoneSignIn.phoneInvalid');
      return;
    }
    setPhoneError(null);
    void send(number, false);
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (!sentTo) return;
    const digits = code.replace(/\D/g, '');
    if (digits.length !== PHONE_CODE_LENGTH) {
      setCodeError('phoneSignIn.codeInvalid');
      return;
    }
    setCodeError(null);
    void run(async () => {
      const response: LoginResponse = await verifyPhoneSignIn(sentTo, digits);
      if (isChallenge(response)) onChallenge(response);
      else onSignedIn(response);
    }, showFailure);
  };

  if (!sentTo) {
    return (
      <AuthForm onSubmit={submitPhone} submitting={submitting} testId="phone-form">
        <ErrorAlert message={formErrorText} onClose={() => setFormError(null)} autoHideMs={0} />
        <Text size="sm" c="dimmed">
          {t('phoneSignIn.intro')}
        </Text>
        <PhoneField
          label={t('phoneSignIn.phoneLabel')}
          placeholder={t('phoneSignIn.phonePlaceholder')}
          autoFocus
          value={phone}
          error={phoneError ? t(phoneError) : null}
          onChange={(event) => setPhone(event.currentTarget.value)}
        />
        <Button type="submit" size="md" fullWidth loading={submitting}>
          {t('phoneSignIn.sendCode')}
        </Button>
        <Group justify="center">
          <Anchor component="button" type="button" size="sm" onClick={onCancel}>
            {t('phoneSignIn.useEmail')}
          </Anchor>
        </Group>
      </AuthForm>
    );
  }

  return (
    <AuthForm onSubmit={submitCode} submitting={submitting} testId="phone-code-form">
      <ErrorAlert message={formErrorText} onClose={() => setFormError(null)} autoHideMs={0} />
      {resent && !formErrorText && (
        <Text size="sm" c="green" role="status">
          {t('phoneSignIn.codeResent')}
        </Text>
      )}
      <CodeField
        label={t('phoneSignIn.codeLabel')}
        description={t('phoneSignIn.codeHint', { phone: sentTo })}
        digits={PHONE_CODE_LENGTH}
        value={code}
        error={codeError ? t(codeError) : null}
        onChange={setCode}
      />
      <Button type="submit" size="md" fullWidth loading={submitting}>
        {t('phoneSignIn.verifyButton')}
      </Button>
      <Group justify="space-between">
        <Anchor component="button" type="button" size="sm" onClick={() => setSentTo(null)}>
          {t('phoneSignIn.changeNumber')}
        </Anchor>
        <Button variant="subtle" size="compact-sm" disabled={resendIn > 0 || submitting} onClick={() => void send(sentTo, true)}>
          {resendIn > 0 ? t('phoneSignIn.resendIn', { seconds: resendIn }) : t('phoneSignIn.resend')}
        </Button>
      </Group>
    </AuthForm>
  );
}
