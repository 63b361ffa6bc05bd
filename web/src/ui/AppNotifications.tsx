// Where the app-wide alerts (alerts.ts) appear: top right, clear of the breadcrumb bar that starts at the left
// of the page (issue 30 item 20; at the bottom they covered the forms' Save buttons); at most three at a time
// (more wait their turn).
import { Notifications } from '@mantine/notifications';
import '@mantine/notifications/styles.css';

export function AppNotifications() {
  return <Notifications position="top-right" limit={3} zIndex={1000} />;
}
