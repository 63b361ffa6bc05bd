// A cancel confirmation that needs a reason (spec part 1 §4, §5): the warning, the reason (at least 10
// characters, else the caller's 'You must include a cancel reason.' once confirming was tried: no error while
// typing), the server's refusal under it, and the confirm/keep buttons. It starts empty each time it opens;
// the caller runs the call (`onConfirm` gets the trimmed reason) and says how it went.
import { Alert } from '@mantine/core';
import { CANCEL_REASON_MIN_LENGTH } from '@pluma/common/constants';
import { useState, type ReactNode } from 'react';
import { CancelReasonFields } from './CancelReasonFields';
import { Modal } from './Modal';

interface CancelWithReasonModalProps {
  opened: boolean;
  title: string;
  /** What is being cancelled (a product, a customer), above the warning. */
  summary?: ReactNode;
  warning: string;
  reasonLabel: string;
  reasonPlaceholder: string;
  /** Shown under the reason when it is too short. */
  reasonRequired: string;
  reasonTestId?: string;
  confirmLabel: string;
  keepLabel: string;
  pending: boolean;
  /** The server's words about the reason (a 400 naming it). */
  reasonError: string | null;
  /** Any other failure of the call, in words. */
  callError: string | null;
  onConfirm: (reason: string) => void;
  onClose: () => void;
  'data-testid'?: string;
}

export const cancelReasonLongEnough = (reason: string) => reason.trim().length >= CANCEL_REASON_MIN_LENGTH;

export function CancelWithReasonModal(props: CancelWithReasonModalProps) {
  const { opened, pending, onConfirm, onClose } = props;
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  // Empty again whenever it closes (set while rendering: nothing stale shows when it opens next).
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (!opened) {
      setReason('');
      setTried(false);
    }
  }

  const valid = cancelReasonLongEnough(reason);
  const confirm = () => {
    setTried(true);
    if (valid) onConfirm(reason.trim());
  };

  return (
    <Modal
      opened={opened}
      onClose={() => !pending && onClose()}
      title={props.title}
      onConfirm={confirm}
      confirmLabel={props.confirmLabel}
      cancelLabel={props.keepLabel}
      confirmColor="red"
      confirmLoading={pending}
      data-testid={props['data-testid']}
    >
      {props.summary}
      <CancelReasonFields
        warning={props.warning}
        label={props.reasonLabel}
        placeholder={props.reasonPlaceholder}
        value={reason}
        onChange={(event) => setReason(event.currentTarget.value)}
        error={tried && !valid ? props.reasonRequired : props.reasonError}
        data-autofocus
        data-testid={props.reasonTestId}
      />
      {props.callError && (
        <Alert color="red" role="alert" data-testid="cancel-error">
          {props.callError}
        </Alert>
      )}
    </Modal>
  );
}
