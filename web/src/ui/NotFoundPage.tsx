// Unknown address, or a page this user may not see (shown the same way on purpose).
import { IconMapOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ReturnHomeScreen } from './ReturnHomeScreen';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return <ReturnHomeScreen icon={<IconMapOff size={28} aria-hidden />} title={t('notFound.title')} body={t('notFound.body')} testId="not-found" />;
}
