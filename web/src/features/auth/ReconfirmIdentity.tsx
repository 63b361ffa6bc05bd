// "Confirm it's you" (issue 33 review): adding or removing a sign-in factor needs a second factor passed in the
// last 15 minutes (server: two-factor/factors.ts requireFactorChange, 403 reauthentication_required). Wrapped
// in `confirmed`, such an action that is refused opens the second step in a dialog; once passed, the browser
// keeps the new session it gives (and ends the one it had) and the action runs again. Cancelled, nothing changes.
import { Modal, Stack, Text } from '@mantine/core';
import type { AuthResponse } from '@pluma/common/users';
import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { tokenStore } from '../../api/instance';
import { useSession } from '../../platform/session/session-context';
import { endSession, startReconfirm, type SignInChallenge } from './auth-api';
import { TwoFactorStep } from './TwoFactorStep';

const isReauthenticationRequired = (error: unknown) => error instanceof ApiError && error.errorId === 'reauthentication_required';

export function useReconfirmIdentity(): { confirmed: (action: () => Promise<unknown>) => Promise<boolean>; dialog: ReactNode } {
  const { t } = useTranslation();
  const session = useSession();
  const [challenge, setChallenge] = useState<SignInChallenge | null>(null);
  const settle = useRef<((passed: boolean) => void) | null>(null);

  const close = (passed: boolean) => {
    setChallenge(null);
    settle.current?.(passed);
    settle.current = null;
  };

  /** Runs `action`; if refused for want of a recent second factor, asks for it and runs it again. False when cancelled. */
  const confirmed = async (action: () => Promise<unknown>): Promise<boolean> => {
    try {
      await action();
      return true;
    } catch (error) {
      if (!isReauthenticationRequired(error)) throw error;
    }
    const step = await startReconfirm();
    const passed = await new Promise<boolean>((resolve) => {
      settle.current = resolve;
      setChallenge(step);
    });
    if (!passed) return false;
    await action();
    return true;
  };

  const onPassed = (response: AuthResponse) => {
    const previous = tokenStore.getToken();
    session.signIn(response);
    // The replaced session ends at once rather than idling out (its sockets go with it; the client reconnects).
    if (previous) void endSession(previous).catch(() => undefined);
    close(true);
  };

  const dialog = (
    <Modal opened={challenge !== null} onClose={() => close(false)} title={t('twoFactor.reconfirmTitle')} centered>
      {challenge && (
        <Stack gap="md" data-testid="reconfirm-identity">
          <Text size="sm">{t('twoFactor.reconfirmHint')}</Text>
          <TwoFactorStep challenge={challenge.challenge} methods={challenge.methods} onSignedIn={onPassed} onCancel={() => close(false)} cancelLabel={t('common.cancel')} />
        </Stack>
      )}
    </Modal>
  );
  return { confirmed, dialog };
}
