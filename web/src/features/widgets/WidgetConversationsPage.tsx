// /chat-widget-generator/{widgetId}/conversations (issue 15 item 3): the visitors' sessions of one of the
// owner's widgets, newest first, 20 a page, and the chosen session's messages as a read-only transcript.
// The page and the chosen session live in the address (?page=&session=), so Back and links work.
import { Alert, Anchor, Badge, Card, Group, Paper, Skeleton, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useActiveOrganization } from '../../api/organization';
import { useBreadcrumbLabel } from '../../platform/shell/breadcrumb-labels';
import { ListPagination } from '../../ui/ListPagination';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { TableStateRows } from '../../ui/TableStateRows';
import { WIDGET_SESSIONS_PAGE_SIZE, type WidgetMessage } from '@pluma/common/widgets';
import { NotInOrganization } from './WidgetGeneratorPage';
import { GENERATOR_PATH } from './WidgetList';
import { useWidgets, useWidgetSession, useWidgetSessions } from './widgets-api';
import { formatDateTime } from '../../i18n/format';

const positive = (value: string | null) => {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : null;
};

export default function WidgetConversationsPage() {
  const organization = useActiveOrganization();
  return organization ? <NotInOrganization /> : <Conversations />;
}

function Conversations() {
  const { t, i18n } = useTranslation('widgets');
  const widgetId = Number(useParams().widgetId);
  const [search, setSearch] = useSearchParams();
  const page = positive(search.get('page')) ?? 1;
  const sessionId = positive(search.get('session'));
  const widgets = useWidgets();
  const widget = widgets.data?.widgets.find((w) => w.widget_id === widgetId);
  useBreadcrumbLabel(`${GENERATOR_PATH}/${widgetId}`, widget?.name);
  const sessions = useWidgetSessions(widgetId, page, Number.isInteger(widgetId));
  const session = useWidgetSession(widgetId, sessionId);
  const date = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '—');
  const go = (next: { page?: number; session?: number | null }) => {
    const params = new URLSearchParams(search);
    if (next.page !== undefined) params.set('page', String(next.page));
    if (next.session === null) params.delete('session');
    else if (next.session !== undefined) params.set('session', String(next.session));
    setSearch(params);
  };
  const notFound = sessions.error instanceof ApiError && sessions.error.status === 404;
  const rows = sessions.data?.sessions ?? [];
  const pages = Math.ceil((sessions.data?.total ?? 0) / WIDGET_SESSIONS_PAGE_SIZE);

  return (
    <Stack gap="lg" data-testid="widget-conversations-page">
      <PageHeader title={widget ? t('sessions.title', { name: widget.name }) : t('sessions.titleUnknown')} />
      <Anchor component={Link} to={GENERATOR_PATH} size="sm">
        {t('sessions.back')}
      </Anchor>
      {notFound ? (
        <Alert color="red" role="alert" data-testid="widget-not-found">
          {t('errors.notFound')}
        </Alert>
      ) : sessions.isError ? (
        <LoadErrorAlert text={t('errors.sessionsFailed')} onRetry={() => void sessions.refetch()} retryLabel={t('errors.retry')} data-testid="widget-sessions-error" />
      ) : (
        <>
          <Table.ScrollContainer minWidth={560}>
            <Table highlightOnHover data-testid="widget-sessions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('sessions.started')}</Table.Th>
                  <Table.Th>{t('sessions.lastMessage')}</Table.Th>
                  <Table.Th>{t('sessions.website')}</Table.Th>
                  <Table.Th>{t('sessions.messages')}</Table.Th>
                  <Table.Th>{t('sessions.preview')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                <TableStateRows pending={sessions.isPending} empty={sessions.isSuccess && rows.length === 0} columns={5} emptyText={t('sessions.empty')} emptyTestId="widget-sessions-empty" />
                {rows.map((row) => (
                  <Table.Tr key={row.session_id} aria-selected={row.session_id === sessionId} bg={row.session_id === sessionId ? 'var(--mantine-color-default-hover)' : undefined} data-testid="widget-session-row">
                    <Table.Td>
                      <UnstyledButton onClick={() => go({ session: row.session_id })} aria-label={t('sessions.open', { date: date(row.started_at) })} td="underline" data-testid="widget-session-open">
                        {date(row.started_at)}
                      </UnstyledButton>
                    </Table.Td>
                    <Table.Td>{date(row.last_message_at)}</Table.Td>
                    <Table.Td>{row.origin}</Table.Td>
                    <Table.Td>{row.messages_count}</Table.Td>
                    <Table.Td>
                      <Text size="sm" lineClamp={1}>
                        {row.preview}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ListPagination total={pages} value={page} onChange={(next) => go({ page: next, session: null })} data-testid="widget-sessions-pages" />
        </>
      )}
      {sessionId !== null && !notFound && (
        <Card withBorder padding="md" component="section" aria-labelledby="widget-transcript-title" data-testid="widget-transcript">
          {session.isPending && <Skeleton height={80} />}
          {session.isError && <LoadErrorAlert text={t('errors.sessionFailed')} onRetry={() => void session.refetch()} retryLabel={t('errors.retry')} />}
          {session.data && (
            <Stack gap="sm">
              <Title order={2} size="h4" id="widget-transcript-title">
                {t('sessions.transcript', { date: date(session.data.session.started_at) })}
              </Title>
              <Text size="sm" c="var(--pluma-muted)">
                {session.data.session.origin}
              </Text>
              {session.data.messages.length === 0 && <Text c="dimmed">{t('sessions.noMessages')}</Text>}
              {session.data.messages.map((message) => (
                <TranscriptMessage key={message.message_id} message={message} date={date(message.created_at)} />
              ))}
            </Stack>
          )}
        </Card>
      )}
      {sessionId === null && rows.length > 0 && (
        <Text size="sm" c="dimmed">
          {t('sessions.choose')}
        </Text>
      )}
    </Stack>
  );
}

function TranscriptMessage({ message, date }: { message: WidgetMessage; date: string }) {
  const { t } = useTranslation('widgets');
  const visitor = message.role === 'user';
  return (
    <Paper withBorder p="sm" radius="md" ml={visitor ? 0 : 'xl'} mr={visitor ? 'xl' : 0} bg={visitor ? undefined : 'var(--mantine-color-default-hover)'} data-testid="widget-transcript-message">
      <Group gap="xs" mb={4}>
        <Text size="xs" fw={700}>
          {visitor ? t('sessions.visitor') : t('sessions.assistant')}
        </Text>
        <Text size="xs" c="dimmed">
          {date}
        </Text>
        {message.status !== 'done' && (
          <Badge size="xs" color={message.status === 'failed' ? 'red' : 'gray'}>
            {t(`sessions.status.${message.status === 'failed' || message.status === 'stopped' ? message.status : 'streaming'}`)}
          </Badge>
        )}
      </Group>
      {/* Plain text: a visitor's words are never HTML here. */}
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {message.content}
      </Text>
    </Paper>
  );
}
