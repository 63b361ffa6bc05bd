// Dismissible banner, max width 500 (spec part 2 §2), that hides itself after a while (spec part 1 §4).
// ErrorAlert and SuccessBanner are its two looks.
import { Alert, type AlertProps } from '@mantine/core';
import { ALERT_MS, SUCCESS_MS } from '@pluma/common/constants';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useEffectEvent } from 'react';
import { useTranslation } from 'react-i18next';

const LOOKS = {
  // Red, announced at once, 5 seconds.
  error: { color: 'red', role: 'alert', Icon: IconAlertCircle, testId: 'error-alert', autoHideMs: ALERT_MS },
  // Green, announced politely, 3 seconds.
  success: { color: 'green', role: 'status', Icon: IconCircleCheck, testId: 'success-banner', autoHideMs: SUCCESS_MS },
} as const;

export interface BannerProps extends Omit<AlertProps, 'children' | 'title'> {
  message: string | null | undefined;
  onClose: () => void;
  title?: string;
  /** 0 keeps it until dismissed. */
  autoHideMs?: number;
}

export function TimedBanner({ kind, message, onClose, title, autoHideMs, ...props }: BannerProps & { kind: keyof typeof LOOKS }) {
  const { t } = useTranslation();
  const look = LOOKS[kind];
  const hideAfterMs = autoHideMs ?? look.autoHideMs;
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (!message || !hideAfterMs) return;
    const timer = setTimeout(() => close(), hideAfterMs);
    return () => clearTimeout(timer);
  }, [message, hideAfterMs]);
  if (!message) return null;
  return (
    <Alert
      color={look.color}
      variant="light"
      role={look.role}
      icon={<look.Icon size={18} aria-hidden />}
      title={title}
      withCloseButton
      closeButtonLabel={t('common.dismiss')}
      onClose={onClose}
      maw={500}
      w="100%"
      data-testid={look.testId}
      {...props}
    >
      {message}
    </Alert>
  );
}
