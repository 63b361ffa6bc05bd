// A screen whose feature is switched off in the app settings (spec part 1 §2 "Main navigation tabs": each
// tab only if its setting is on; the API then answers 404 feature_disabled): said plainly instead of a
// screen whose every call fails. Staff see it too: an admin switches the feature back on first.
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ReturnHomeScreen } from '../../ui/ReturnHomeScreen';

export default function FeatureUnavailablePage() {
  const { t } = useTranslation();
  return <ReturnHomeScreen icon={<IconPlugConnectedX size={28} aria-hidden />} title={t('featureOff.title')} body={t('featureOff.body')} testId="feature-unavailable" />;
}
