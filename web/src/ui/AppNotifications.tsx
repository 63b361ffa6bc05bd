// Where the app-wide alerts (alerts.ts) appear: bottom right, clear of the breadcrumb bar and the page header
// at the top (issue 30 item 20); at most three at a time (more wait their turn).
import { Notifications } from '@mantine/notifications';
import '@mantine/notifications/styles.css';

export function AppNotifications() {
  return <Notifications position="bottom-right" limit={3} zIndex={1000} />;
}
