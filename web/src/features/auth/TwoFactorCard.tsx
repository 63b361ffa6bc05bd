// Settings › Security: two-factor with an authenticator app (issue 33 item 2). Off: set it up (QR code or the
// key typed in, then a first code); on: new recovery codes or turning it off, each with a current code.
// Recovery codes are shown once, right after they are made. Staff admins must keep it on.
import { Alert, Badge, Button, Card, Checkbox, Code, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../platform/session/session-context';
import { showSuccess } from '../../ui/alerts';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { screenText, type ScreenText } from '../../ui/screen-text';
import { confirmTwoFactor, disableTwoFactor, getTwoFactorStatus, newRecoveryCodes, startTwoFactorSetup, type TwoFactorStatus } from './auth-api';
import { useReconfirmIdentity } from './ReconfirmIdentity';
import { rememberDeviceToken } from './trusted-devices';

type Setup = { secret: string; qr_svg: string };

export function TwoFactorCard() {
  const { t } = useTranslation();
  const session = useSession();
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ScreenText | null>(null);
  // With a passkey already, setting up an authenticator may first ask "Confirm it's you".
  const { confirmed, dialog } = useReconfirmIdentity();

  const load = () => getTwoFactorStatus().then(setStatus, (error: unknown) => setFailure({ failure: error }));
  useEffect(() => void load(), []);

  const act = async (action: () => Promise<void>) => {
    setFailure(null);
    setBusy(true);
    try {
      await action();
      setCode('');
    } catch (error) {
      setFailure({ failure: error, options: { showValidation: true } });
    } finally {
      setBusy(false);
    }
  };

  const begin = () =>
    act(async () => {
      await confirmed(async () => setSetup(await startTwoFactorSetup()));
    });
  const confirm = () =>
    act(async () => {
      const answer = await confirmTwoFactor(code.trim(), remember);
      if (answer.device_token) rememberDeviceToken(answer.device_token);
      setSetup(null);
      setCodes(answer.recovery_codes);
      showSuccess(t('twoFactor.enabled'));
      // This sign-in has now passed a second factor: a staff admin's back office opens.
      await Promise.all([load(), session.reloadUser()]);
    });
  const turnOff = () =>
    act(async () => {
      await disableTwoFactor(code.trim());
      setCodes(null);
      showSuccess(t('twoFactor.disabled'));
      await Promise.all([load(), session.reloadUser()]);
    });
  const regenerate = () =>
    act(async () => {
      setCodes((await newRecoveryCodes(code.trim())).recovery_codes);
      await load();
    });

  const codeField = (label: string) => (
    <TextInput
      label={label}
      description={t('twoFactor.codeHint')}
      autoComplete="one-time-code"
      value={code}
      onChange={(event) => setCode(event.currentTarget.value)}
      maw={320}
    />
  );

  return (
    <Card withBorder radius="lg" padding="xl" id="security" data-testid="two-factor-card" aria-busy={busy}>
      {dialog}
      <Stack gap="md">
        <Group justify="space-between">
          <Text fw={600}>{t('twoFactor.cardTitle')}</Text>
          {status && (
            <Badge color={status.enabled ? 'green' : 'gray'} variant="light">
              {status.enabled ? t('twoFactor.statusOn') : t('twoFactor.statusOff')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="var(--pluma-muted)">
          {status?.enabled ? t('twoFactor.cardHintOn') : t('twoFactor.cardHintOff')}
        </Text>
        {status?.required && !status.enabled && (
          <Alert color="orange" variant="light" data-testid="two-factor-required">
            {t('twoFactor.requiredNote')}
          </Alert>
        )}
        <ErrorAlert message={screenText(failure, t)} onClose={() => setFailure(null)} autoHideMs={0} />

        {codes && (
          <Alert color="blue" variant="light" title={t('twoFactor.recoveryTitle')} data-testid="recovery-codes">
            <Stack gap="xs">
              <Text size="sm">{t('twoFactor.recoveryNote')}</Text>
              <SimpleGrid cols={2} spacing={4} maw={320}>
                {codes.map((one) => (
                  <Code key={one}>{one}</Code>
                ))}
              </SimpleGrid>
              <Group>
                <Button size="xs" variant="light" onClick={() => setCodes(null)}>
                  {t('twoFactor.recoveryDone')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}

        {status && !status.enabled && !setup && (
          <Group>
            <Button onClick={() => void begin()} loading={busy}>
              {t('twoFactor.setUp')}
            </Button>
          </Group>
        )}

        {setup && (
          <Stack gap="sm" data-testid="two-factor-setup">
            <Text size="sm">{t('twoFactor.scanQr')}</Text>
            <img src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qr_svg)}`} alt={t('twoFactor.qrAlt')} width={180} height={180} />
            <Text size="sm">
              {t('twoFactor.manualKey')} <Code data-testid="two-factor-secret">{setup.secret}</Code>
            </Text>
            {codeField(t('twoFactor.codeLabel'))}
            <Checkbox label={t('twoFactor.rememberDevice')} checked={remember} onChange={(event) => setRemember(event.currentTarget.checked)} />
            <Group>
              <Button onClick={() => void confirm()} loading={busy} disabled={code.trim() === ''}>
                {t('twoFactor.confirmButton')}
              </Button>
              <Button variant="subtle" onClick={() => setSetup(null)}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        )}

        {status?.enabled && (
          <Stack gap="sm">
            <Text size="sm">{t('twoFactor.recoveryLeft', { count: status.recovery_codes_left })}</Text>
            {codeField(t('twoFactor.currentCodeLabel'))}
            <Group>
              <Button variant="light" onClick={() => void regenerate()} loading={busy} disabled={code.trim() === ''}>
                {t('twoFactor.newRecoveryCodes')}
              </Button>
              {!status.required && (
                <Button color="red" variant="light" onClick={() => void turnOff()} loading={busy} disabled={code.trim() === ''}>
                  {t('twoFactor.disable')}
                </Button>
              )}
            </Group>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
