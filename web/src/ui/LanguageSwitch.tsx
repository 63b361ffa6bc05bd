// EN/ES switch for signed-out screens (signed-in users change language in Settings or Profile).
import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { applyLanguage, isLang } from '../i18n';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      radius="xl"
      value={i18n.language}
      onChange={(value) => isLang(value) && applyLanguage(value)}
      aria-label={t('language.label')}
      data-testid="language-switch"
      data={[
        { value: 'en', label: 'EN' },
        { value: 'es', label: 'ES' },
      ]}
    />
  );
}
