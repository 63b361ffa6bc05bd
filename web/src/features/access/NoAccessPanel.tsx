// Shown in the shell to a signed-in user without access, for every page that needs it (spec part 2 §2), in
// the words of that page's feature (spec part 1 §2: avatars, chat).
import { Box } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../ui/use-page-title';
import { OutOfCredits, type OutOfCreditsVariant } from './OutOfCredits';

export default function NoAccessPanel({ variant = 'default' }: { variant?: OutOfCreditsVariant }) {
  const { t } = useTranslation();
  usePageTitle(variant === 'avatars' ? t('access.avatarsTitle') : t('access.title'));
  return (
    <Box py={{ base: 'md', sm: 'xl' }}>
      <OutOfCredits variant={variant} testId="no-access-panel" />
    </Box>
  );
}
