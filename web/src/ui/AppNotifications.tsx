// Where the app-wide alerts (alerts.ts) appear: top centre, at most three at a time (more wait their turn).
import { Notifications } from '@mantine/notifications';
import '@mantine/notifications/styles.css';

export function AppNotifications() {
  return <Notifications position="top-center" limit={3} zIndex={1000} />;
}
