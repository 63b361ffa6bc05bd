// /tutorials/{tutorial_id} (spec part 2 §2 "Tutorials"): the video, its name and description, and Back to
// the list. An unknown tutorial is the not-found text.
import { Anchor, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useBreadcrumbLabel } from '../../platform/shell/breadcrumb-labels';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { TutorialPlayer } from './TutorialPlayer';
import { useTutorial } from './tutorials-api';

export default function TutorialPage() {
  const { t } = useTranslation('tutorials');
  const { tutorialId } = useParams();
  const id = /^\d{1,10}$/.test(tutorialId ?? '') ? Number(tutorialId) : null;
  const tutorial = useTutorial(id);
  // The crumb of this page reads the tutorial's name instead of its id.
  useBreadcrumbLabel(`/tutorials/${tutorialId}`, tutorial.data?.name);
  const notFound = id === null || (tutorial.error instanceof ApiError && tutorial.error.status === 404);

  return (
    <Stack gap="md" data-testid="tutorial-page">
      <Group>
        <Anchor component={Link} to="/tutorials" size="sm" data-testid="tutorial-back">
          <Group gap={4} component="span">
            <IconArrowLeft size={16} aria-hidden />
            {t('page.back')}
          </Group>
        </Anchor>
      </Group>
      {notFound ? (
        <Text c="dimmed" data-testid="tutorial-not-found">
          {t('page.notFound')}
        </Text>
      ) : tutorial.isError ? (
        <LoadErrorAlert text={screenText({ failure: tutorial.error }, t) ?? t('page.loadError')} onRetry={() => void tutorial.refetch()} retryLabel={t('retry')} data-testid="tutorial-error" />
      ) : tutorial.isPending ? (
        <Skeleton height={360} maw={960} radius="md" data-testid="tutorial-loading" />
      ) : (
        <>
          <PageHeader title={tutorial.data.name} />
          <TutorialPlayer tutorial={tutorial.data} />
          {tutorial.data.description && (
            <Text maw={960} style={{ whiteSpace: 'pre-wrap' }} data-testid="tutorial-description">
              {tutorial.data.description}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
