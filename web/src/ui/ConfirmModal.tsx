// Asking before an action that cannot be undone (deleting a group or a customer, removing a member,
// revoking access; spec part 2 §5 "deletion warns … cannot be undone"): the warning, Cancel, and the red
// confirm button, busy while the call runs.
import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Modal } from './Modal';

interface ConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  warning: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  pending: boolean;
  'data-testid'?: string;
}

export function ConfirmModal({ warning, pending, ...modal }: ConfirmModalProps) {
  return (
    <Modal {...modal} confirmColor="red" confirmLoading={pending}>
      <Text size="sm">{warning}</Text>
    </Modal>
  );
}
