// A list or page that could not be loaded: a red alert with an optional title, the failure in words and a
// retry button, laid out as the back-office screens show them.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

interface LoadErrorAlertProps {
  title?: string;
  /** The failure in words. */
  text?: ReactNode;
  onRetry?: () => void;
  retryLabel?: string;
  'data-testid'?: string;
}

export function LoadErrorAlert({ title, text, onRetry, retryLabel, 'data-testid': testId }: LoadErrorAlertProps) {
  const retry = onRetry && (
    <Button size="xs" variant="default" onClick={onRetry}>
      {retryLabel}
    </Button>
  );
  const body =
    text == null || !retry ? (
      (text ?? retry)
    ) : title ? (
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{text}</Text>
        {retry}
      </Stack>
    ) : (
      <Group justify="space-between">
        <Text size="sm">{text}</Text>
        {retry}
      </Group>
    );
  return (
    <Alert color="red" role="alert" title={title} data-testid={testId}>
      {body}
    </Alert>
  );
}
