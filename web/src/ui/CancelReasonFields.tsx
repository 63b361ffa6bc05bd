// What every cancellation asks (spec part 1 §4): the warning that it cannot be undone (with what the
// customer keeps) and the reason, required, up to 2000 characters. Used by the customer's own cancel
// (/billing) and the back office's cancel and edit-to-cancelled.
import { Alert, Textarea, type TextareaProps } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

interface CancelReasonFieldsProps extends TextareaProps {
  warning: string;
  'data-testid'?: string;
  'data-autofocus'?: boolean;
}

export function CancelReasonFields({ warning, ...reason }: CancelReasonFieldsProps) {
  return (
    <>
      <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden />} data-testid="cancel-warning">
        {warning}
      </Alert>
      <Textarea minRows={3} autosize maxLength={2000} required {...reason} />
    </>
  );
}
