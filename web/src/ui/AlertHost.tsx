// Shows the app-wide alerts at the top of the viewport.
import { Stack } from '@mantine/core';
import { dismissAlert, useAlerts } from './alerts';
import { ErrorAlert } from './ErrorAlert';
import { SuccessBanner } from './SuccessBanner';

export function AlertHost() {
  const alerts = useAlerts();
  return (
    <Stack
      gap="xs"
      align="center"
      pos="fixed"
      top={12}
      left={0}
      right={0}
      px="md"
      style={{ zIndex: 1000, pointerEvents: 'none' }}
      aria-live="polite"
      data-testid="alert-host"
    >
      {alerts.map((alert) =>
        alert.kind === 'error' ? (
          <ErrorAlert key={alert.id} message={alert.message} onClose={() => dismissAlert(alert.id)} autoHideMs={0} style={{ pointerEvents: 'auto', boxShadow: 'var(--mantine-shadow-md)' }} />
        ) : (
          <SuccessBanner key={alert.id} message={alert.message} onClose={() => dismissAlert(alert.id)} autoHideMs={0} style={{ pointerEvents: 'auto', boxShadow: 'var(--mantine-shadow-md)' }} />
        ),
      )}
    </Stack>
  );
}
