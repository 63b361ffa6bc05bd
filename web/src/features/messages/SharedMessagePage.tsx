// /shared/{token}: a shared message for anyone with the link, signed in or not, outside the app shell
// (standalone route). Only what the public read returns is shown: the text, who wrote it (you or the
// assistant), the model and the date, an avatar answer's cited passages; the footer names the app. Never indexed by search engines.
import { Alert, Anchor, Badge, Box, Button, Card, Center, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconLinkOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useAppConfig } from '../../platform/config/app-config';
import { Logo } from '../../ui/Logo';
import { usePageTitle } from '../../ui/use-page-title';
import { MessageCitations, MessageMarkdown } from '../chat';
import { fetchSharedMessage } from './messages-api';
import { formatDate } from '../../i18n/format';

export default function SharedMessagePage() {
  const { t, i18n } = useTranslation('messages');
  const token = useParams().token ?? '';
  const appName = useAppConfig().get('app_name');
  const shared = useQuery({
    queryKey: ['shared-message', token],
    queryFn: ({ signal }) => fetchSharedMessage(token, signal),
    // A revoked or unknown link stays a 404; only network trouble is worth another try.
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
  usePageTitle(t('shared.title'));
  useNoIndex();
  const notFound = shared.error instanceof ApiError && shared.error.status === 404;

  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }} data-testid="shared-message-page">
      <Container size="md" w="100%" py="lg" style={{ flex: 1 }}>
        <Stack gap="lg">
          <Anchor component={Link} to="/" underline="never" c="inherit" aria-label={t('shared.visit', { app: appName })} style={{ alignSelf: 'flex-start' }}>
            <Logo height={28} />
          </Anchor>
          {shared.isPending ? (
            <Center py="xl" role="status" aria-label={t('shared.loading')}>
              <Loader />
            </Center>
          ) : notFound ? (
            <Card withBorder radius="lg" padding="xl" data-testid="shared-not-found">
              <Stack align="center" gap="xs">
                <IconLinkOff size={32} aria-hidden />
                <Title order={1} fz={22} ta="center">
                  {t('shared.notFoundTitle')}
                </Title>
                <Text c="var(--pluma-muted)" ta="center">
                  {t('shared.notFoundBody')}
                </Text>
              </Stack>
            </Card>
          ) : shared.isError ? (
            <Alert color="red" variant="light" title={t('shared.loadFailed')}>
              <Button size="compact-sm" variant="light" color="red" onClick={() => void shared.refetch()}>
                {t('shared.retry')}
              </Button>
            </Alert>
          ) : (
            <Card component="article" withBorder radius="lg" padding="xl" data-testid="shared-message">
              <Stack gap="md">
                <Group justify="space-between" gap="sm" wrap="wrap">
                  <Title order={1} fz={22}>
                    {shared.data.role === 'user' ? t('shared.prompt') : t('shared.title')}
                  </Title>
                  <Group gap="xs">
                    {shared.data.model && (
                      <Badge variant="light" color="violet">
                        {shared.data.model}
                      </Badge>
                    )}
                    <Text size="sm" c="var(--pluma-muted)">
                      <time dateTime={shared.data.createdAt}>
                        {formatDate(shared.data.createdAt, i18n.language, { dateStyle: 'long' })}
                      </time>
                    </Text>
                  </Group>
                </Group>
                {shared.data.role === 'user' ? (
                  <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{shared.data.content}</Text>
                ) : (
                  <MessageMarkdown content={shared.data.content} />
                )}
                <MessageCitations citations={shared.data.citations} />
              </Stack>
            </Card>
          )}
        </Stack>
      </Container>
      <Box component="footer" py="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Container size="md">
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="var(--pluma-muted)" data-testid="shared-footer">
              {t('shared.footer', { app: appName })}
            </Text>
            <Anchor component={Link} to="/" size="sm">
              {t('shared.visit', { app: appName })}
            </Anchor>
          </Group>
        </Container>
      </Box>
    </Box>
  );
}

/** Shared links are for the people they are given to, not for search engines. */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}
