// "Test" beside the AI and Stripe keys: one real call to the provider with the key typed (before saving)
// or the key in use, and its answer: works, or the provider's status, code and message.
import { Button, Text } from '@mantine/core';
import { isMaskedSecret, type ConfigKeyTestResult, type TestableConfigKey } from '@pluma/common/appconfig';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorHandler } from '../../ui/use-error-handler';
import { testConfigKey } from './settings-api';

function ResultText({ result }: { result: ConfigKeyTestResult }) {
  const { t } = useTranslation('admin-settings');
  if (result.ok) {
    return (
      <Text size="sm" c="green.9" role="status" mt={4} data-testid="key-test-result">
        {t('keyTest.ok')}
      </Text>
    );
  }
  const detail = [result.status, result.code, result.message].filter((part) => part !== null && part !== '').join(' · ');
  return (
    <Text size="sm" c="red.8" role="alert" mt={4} data-testid="key-test-result">
      {result.code === 'not_configured' ? t('keyTest.notConfigured') : result.status === null ? t('keyTest.unreachable', { detail }) : t('keyTest.failed', { detail })}
    </Text>
  );
}

/** The Test button (beside the field) and its answer (under it). */
export function useKeyTest(configKey: TestableConfigKey, value: string): { button: ReactNode; result: ReactNode } {
  const { t } = useTranslation('admin-settings');
  const handleError = useErrorHandler();
  const test = useMutation({
    // A masked value is never sent: the server then tests the key in use.
    mutationFn: () => testConfigKey({ key: configKey, ...(value && !isMaskedSecret(value) ? { value } : {}) }),
    onError: (error) => handleError(error),
  });
  return {
    button: (
      <Button variant="light" loading={test.isPending} onClick={() => test.mutate()} data-testid={`test-${configKey}`}>
        {t('keyTest.run')}
      </Button>
    ),
    result: test.data ? <ResultText result={test.data} /> : null,
  };
}
