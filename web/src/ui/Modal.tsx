// The app's modal (spec part 2 §2): static backdrop, optional title, size and close button, and a
// cancel/confirm footer when a confirm callback is given. A modal belongs to the page it was opened on:
// leaving the page closes it (spec part 1 §8: a 412 closes any modal on its way to /sorry).
import { Button, Group, Modal as MantineModal, Stack, type MantineSize } from '@mantine/core';
import { useEffect, useEffectEvent, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

export interface ModalProps {
  opened: boolean;
  onClose: () => void;
  title?: ReactNode;
  size?: MantineSize | number | string;
  /** Show the × button (default true). */
  withCloseButton?: boolean;
  /** When given, a Cancel / Confirm footer is shown. */
  onConfirm?: () => void;
  confirmLabel?: string;
  cancelLabel?: string;
  confirmColor?: string;
  confirmLoading?: boolean;
  confirmDisabled?: boolean;
  children?: ReactNode;
  'data-testid'?: string;
}

export function Modal({
  opened,
  onClose,
  title,
  size = 'md',
  withCloseButton = true,
  onConfirm,
  confirmLabel,
  cancelLabel,
  confirmColor,
  confirmLoading,
  confirmDisabled,
  children,
  'data-testid': testId,
}: ModalProps) {
  const { t } = useTranslation();
  const close = useEffectEvent(onClose);
  const { pathname } = useLocation();
  const openedOn = useRef<string | null>(null);
  useEffect(() => {
    if (!opened) openedOn.current = null;
    else if (openedOn.current === null) openedOn.current = pathname;
    else if (openedOn.current !== pathname) close();
  }, [opened, pathname]);

  return (
    <MantineModal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      centered
      withCloseButton={withCloseButton}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      // Static backdrop: a click outside never discards what the user typed.
      closeOnClickOutside={false}
      overlayProps={{ backgroundOpacity: 0.45, blur: 2 }}
      data-testid={testId}
    >
      <Stack gap="lg">
        {children}
        {onConfirm && (
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={confirmLoading}>
              {cancelLabel ?? t('common.cancel')}
            </Button>
            <Button color={confirmColor} onClick={onConfirm} loading={confirmLoading} disabled={confirmDisabled}>
              {confirmLabel ?? t('common.confirm')}
            </Button>
          </Group>
        )}
      </Stack>
    </MantineModal>
  );
}
