// The user's own AI-provider key in Settings (spec part 1 §1: avatars need it; §2 Settings' note): the
// saved key masked to its last 4 characters, a field to save a new one, Test (one call to the provider with
// the typed key, or the saved one) and Remove. The key itself never comes back from the server.
import { Alert, Button, Card, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { saveAiKeyRequest, type AiKeyTestResult } from '@pluma/common/avatars';
import { translate, type MessageKey } from '@pluma/common/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { isLang } from '../../i18n';
import { showSuccess } from '../../ui/alerts';
import { localizeServerText } from '../../ui/server-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { AI_KEY_KEY, removeAiKey, saveAiKey, testAiKey, useAiKey } from '../avatars';

export function AiKeyCard() {
  // Texts of the main bundle (settings.aiKey): a language switch on this screen applies at once.
  const { t, i18n } = useTranslation('translation', { keyPrefix: 'settings.aiKey' });
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const status = useAiKey();
  const [typed, setTyped] = useState('');
  // A server text (a 400's words) or the message key of the same check made here first.
  const [fieldError, setFieldError] = useState<{ text: string } | { key: MessageKey } | null>(null);
  const [result, setResult] = useState<AiKeyTestResult | null>(null);
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.status === 400) setFieldError({ text: error.details.api_key ?? error.message });
    else handleError(error, { showValidation: true });
  };
  const checkTyped = (): boolean => {
    const parsed = saveAiKeyRequest.safeParse({ api_key: typed });
    setFieldError(parsed.success ? null : { key: 'ai_key_invalid' });
    return parsed.success;
  };
  const save = useMutation({
    mutationFn: () => saveAiKey(typed),
    onSuccess: (next) => {
      queryClient.setQueryData(AI_KEY_KEY, next);
      setTyped('');
      setResult(null);
      showSuccess(t('saved'));
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: removeAiKey,
    onSuccess: (next) => {
      queryClient.setQueryData(AI_KEY_KEY, next);
      setResult(null);
      showSuccess(t('removed'));
    },
    onError,
  });
  const test = useMutation({ mutationFn: () => testAiKey(typed.trim() || undefined), onSuccess: setResult, onError });
  const configured = status.data?.configured ?? false;
  const errorText = !fieldError ? null : 'key' in fieldError ? translate(isLang(i18n.language) ? i18n.language : 'en', fieldError.key) : localizeServerText(fieldError.text);

  return (
    <Card withBorder radius="lg" padding="xl" data-testid="ai-key-card">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h4">
            {t('title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('description')}
          </Text>
        </Stack>
        <Text size="sm" data-testid="ai-key-status">
          {status.isPending ? '…' : configured ? t('current', { masked: status.data?.masked }) : t('none')}
        </Text>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (checkTyped()) save.mutate();
          }}
        >
          <Stack gap="sm">
            <PasswordInput
              label={t('label')}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              error={errorText}
              autoComplete="off"
              maw={480}
              data-testid="ai-key-input"
            />
            <Group gap="sm">
              <Button type="submit" loading={save.isPending} disabled={!typed.trim()} data-testid="ai-key-save">
                {t('save')}
              </Button>
              <Button variant="default" loading={test.isPending} disabled={!typed.trim() && !configured} onClick={() => test.mutate()} data-testid="ai-key-test">
                {t('test')}
              </Button>
              {configured && (
                <Button variant="subtle" color="red" loading={remove.isPending} onClick={() => remove.mutate()} data-testid="ai-key-remove">
                  {t('remove')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
        {result && (
          <Alert color={result.ok ? 'green' : 'red'} variant="light" maw={500} data-testid="ai-key-test-result">
            {result.ok
              ? t('testOk')
              : result.status === null
                ? t('testUnreachable')
                : t('testFailed', { status: result.status, message: result.message ?? result.code ?? '' })}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
