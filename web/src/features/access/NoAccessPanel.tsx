// Shown in the shell to a signed-in user without access, for every page that needs it (spec part 2 §2).
import { Box } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../ui/use-page-title';
import { OutOfCredits } from './OutOfCredits';

export default function NoAccessPanel() {
  const { t } = useTranslation();
  usePageTitle(t('access.title'));
  return (
    <Box py={{ base: 'md', sm: 'xl' }}>
      <OutOfCredits testId="no-access-panel" />
    </Box>
  );
}
