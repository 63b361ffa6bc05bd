// Loading screen (spec part 1 §2): shows a way out after 30 seconds (spec part 1 §9). It fades in after
// a moment (global.css, .pluma-loading-screen): a screen that is ready sooner appears without a spinner
// flashing first, and the first paint is the screen itself.
import { Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import { LOADING_REDIRECT_HINT_MS } from '@pluma/common/constants';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export function LoadingScreen({ hintAfterMs = LOADING_REDIRECT_HINT_MS }: { hintAfterMs?: number }) {
  const { t } = useTranslation();
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), hintAfterMs);
    return () => clearTimeout(timer);
  }, [hintAfterMs]);
  return (
    <Center mih="100dvh" p="md" component="main" className="pluma-loading-screen" data-testid="loading-screen">
      <Stack align="center" gap="md" role="status" aria-live="polite">
        <Loader size="lg" aria-hidden />
        <Text c="var(--pluma-muted)">{t('common.loading')}</Text>
        {slow && (
          <Text size="sm" ta="center" data-testid="loading-redirect">
            {t('loading.slow')}{' '}
            {/* A full load of / starts over (new code, fresh session check). */}
            <Anchor href="/">{t('loading.goHome')}</Anchor>
          </Text>
        )}
      </Stack>
    </Center>
  );
}
