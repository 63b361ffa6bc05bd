// Green success banner (spec part 2 §2), max width 500, hides itself after 3 seconds (spec part 1 §4).
import { Alert, type AlertProps } from '@mantine/core';
import { SUCCESS_MS } from '@pluma/common/constants';
import { IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useEffectEvent } from 'react';
import { useTranslation } from 'react-i18next';

interface SuccessBannerProps extends Omit<AlertProps, 'children' | 'title'> {
  message: string | null | undefined;
  onClose: () => void;
  title?: string;
  /** 0 keeps it until dismissed. */
  autoHideMs?: number;
}

export function SuccessBanner({ message, onClose, title, autoHideMs = SUCCESS_MS, ...props }: SuccessBannerProps) {
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
      color="green"
      variant="light"
      role="status"
      icon={<IconCircleCheck size={18} aria-hidden />}
      title={title}
      withCloseButton
      closeButtonLabel={t('common.dismiss')}
      onClose={onClose}
      maw={500}
      w="100%"
      data-testid="success-banner"
      {...props}
    >
      {message}
    </Alert>
  );
}
