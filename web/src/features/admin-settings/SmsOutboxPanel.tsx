// The text messages the server wrote (issue 33 item 1: phone sign-in codes), newest first, beside the mail
// outbox: without Twilio in the settings this is where an admin reads a code. GET /api/admin/sms-outbox.
import { Alert, Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../i18n/format';
import { useSmsOutbox } from './settings-api';

export function SmsOutboxPanel() {
  const { t, i18n } = useTranslation('admin-settings');
  const outbox = useSmsOutbox();

  return (
    <Stack gap="sm" mt="xl" data-testid="sms-outbox">
      <Title order={3} size="h4">
        {t('smsOutbox.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('smsOutbox.description')}
      </Text>
      {outbox.isPending ? (
        <Text size="sm" c="dimmed">
          …
        </Text>
      ) : outbox.isError ? (
        <Alert color="red" role="alert" title={t('smsOutbox.loadError')}>
          <Button size="xs" variant="default" onClick={() => void outbox.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : outbox.data.items.length === 0 ? (
        <Text data-testid="sms-outbox-empty">{t('smsOutbox.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table highlightOnHover data-testid="sms-outbox-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('smsOutbox.to')}</Table.Th>
                <Table.Th>{t('smsOutbox.text')}</Table.Th>
                <Table.Th>{t('smsOutbox.date')}</Table.Th>
                <Table.Th>{t('smsOutbox.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {outbox.data.items.map((sms) => (
                <Table.Tr key={sms.sms_id} data-testid="sms-outbox-row">
                  <Table.Td>{sms.to}</Table.Td>
                  <Table.Td>
                    {sms.text}
                    {sms.error && (
                      <Text size="xs" c="red">
                        {sms.error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{formatDateTime(sms.createdAt, i18n.language)}</Table.Td>
                  <Table.Td>
                    <Badge variant="dot" color={sms.status === 'sent' ? 'green' : sms.status === 'failed' ? 'red' : 'gray'}>
                      {sms.status}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
