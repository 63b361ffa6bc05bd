// The outbox (issue 11 item 5): mail the server wrote but did not send (no SMTP configured, or a failure),
// newest first — subject, recipient, date, and the body in a modal. GET /api/admin/outbox, admins only.
import { Alert, Badge, Button, Code, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../ui/Modal';
import { useOutbox, type OutboxMail } from './settings-api';
import { formatDateTime } from '../../i18n/format';


export function OutboxPanel() {
  const { t, i18n } = useTranslation('admin-settings');
  const outbox = useOutbox(true);
  const [open, setOpen] = useState<OutboxMail | null>(null);

  if (outbox.isPending) return <Skeleton height={120} data-testid="outbox-loading" />;
  if (outbox.isError) {
    return (
      <Alert color="red" role="alert" title={t('outbox.loadError')}>
        <Button size="xs" variant="default" onClick={() => void outbox.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  }
  const mails = outbox.data.items;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('outbox.description')}
      </Text>
      {mails.length === 0 ? (
        <Text data-testid="outbox-empty">{t('outbox.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table highlightOnHover data-testid="outbox-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('outbox.subject')}</Table.Th>
                <Table.Th>{t('outbox.to')}</Table.Th>
                <Table.Th>{t('outbox.date')}</Table.Th>
                <Table.Th>{t('outbox.status')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {mails.map((mail) => (
                <Table.Tr key={mail.mail_id} data-testid="outbox-row">
                  <Table.Td>{mail.subject}</Table.Td>
                  <Table.Td>{mail.to}</Table.Td>
                  <Table.Td>{formatDateTime(mail.createdAt, i18n.language)}</Table.Td>
                  <Table.Td>
                    <Badge variant="dot" color={mail.status === 'sent' ? 'green' : mail.status === 'failed' ? 'red' : 'gray'}>
                      {mail.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="default" onClick={() => setOpen(mail)}>
                      {t('outbox.view')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open?.subject} size="lg" data-testid="outbox-mail">
        {open && (
          <Stack gap="xs">
            <Text size="sm">{t('outbox.toLine', { to: open.to })}</Text>
            {open.error && (
              <Text size="sm" c="red">
                {open.error}
              </Text>
            )}
            <Code block style={{ whiteSpace: 'pre-wrap' }}>
              {open.text}
            </Code>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
