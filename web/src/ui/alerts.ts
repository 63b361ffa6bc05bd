// App-wide alerts, shown by Mantine's notifications (<AppNotifications/> in the app): any code can raise
// one. spec part 1 §4: errors hide after 5 seconds, success messages after 3.
import { notifications } from '@mantine/notifications';
import { ALERT_MS, SUCCESS_MS } from '@pluma/common/constants';
import { i18n } from '../i18n';

const LOOKS = {
  // Red and announced at once (role=alert); green and announced politely (role=status).
  error: { color: 'red', role: 'alert', autoClose: ALERT_MS },
  success: { color: 'green', role: 'status', autoClose: SUCCESS_MS },
} as const;

function show(kind: keyof typeof LOOKS, message: string) {
  const { color, role, autoClose } = LOOKS[kind];
  // The text is the id: the same alert raised twice while shown (e.g. two failed calls of one screen) shows once.
  notifications.show({
    id: `${kind}:${message}`,
    message,
    color,
    role,
    autoClose,
    withBorder: true,
    closeButtonProps: { 'aria-label': i18n.t('common.dismiss') },
    'data-testid': `app-${kind}`,
  });
}

export const showError = (message: string) => show('error', message);
export const showSuccess = (message: string) => show('success', message);
