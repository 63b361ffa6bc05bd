// Dismissible red alert (spec part 2 §2), max width 500, hides itself after 5 seconds (spec part 1 §4).
import { Alert, type AlertProps } from '@mantine/core';
import { ALERT_MS } from '@pluma/common/constants';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useEffectEvent } from 'react';
import { useTranslation } from 'react-i18next';

interface ErrorAlertProps extends Omit<AlertProps, 'children' | 'title'> {
  message: string | null | undefined;
  onClose: () => void;
  title?: string;
  /** 0 keeps it until dismissed. */
  autoHideMs?: number;
}

export function ErrorAlert({ message, onClose, title, autoHideMs = ALERT_MS, ...props }: ErrorAlertProps) {
  const { t } = useTranslation();
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (!message || !autoHideMs) return;
    const timer = setTimeout(() => close(), autoHideMs);
    return () => clearTimeout(timer);
  }, [message, autoHideMs]);
  if (!message) return null;
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      icon={<IconAlertCircle size={18} aria-hidden />}
      title={title}
      withCloseButton
      closeButtonLabel={t('common.dismiss')}
      onClose={onClose}
      maw={500}
      w="100%"
      data-testid="error-alert"
      {...props}
    >
      {message}
    </Alert>
  );
}
