// The floating collapsible walkthrough video (spec part 2 §2 "Reusable pieces": "A floating collapsible
// walkthrough video (labelled Mostrar/Ocultar) shows when the current purchase's product has video_src").
// The purchase is the current context's from the onboarding check when this visit made it (the latest
// active or completed purchase of the current organization), else the current user's. Shown or hidden is
// remembered on this browser.
import { Button, Group, Paper, Text } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { safeStorage } from '../../api/storage-keys';
import { useCurrentUser } from '../../platform/session/session-context';
import { useCachedOnboardingStatus } from './onboarding-api';
import { videoSource, type VideoSource } from './video-source';

export const VIDEO_HIDDEN_KEY = 'pluma.walkthroughVideoHidden';

function savedHidden(): boolean {
  try {
    return safeStorage()?.getItem(VIDEO_HIDDEN_KEY) === '1';
  } catch {
    return false;
  }
}

export default function WalkthroughVideo() {
  const user = useCurrentUser();
  const onboarding = useCachedOnboardingStatus();
  const purchase = onboarding ? onboarding.purchase : user.purchase;
  const source = videoSource(purchase?.product?.video_src);
  // Without a video nothing else loads (not even the onboarding texts).
  return source ? <FloatingVideo source={source} /> : null;
}

function FloatingVideo({ source }: { source: VideoSource }) {
  const { t } = useTranslation('onboarding');
  const [hidden, setHidden] = useState(savedHidden);
  const bodyId = useId();

  const toggle = () => {
    const next = !hidden;
    setHidden(next);
    try {
      safeStorage()?.setItem(VIDEO_HIDDEN_KEY, next ? '1' : '0');
    } catch {
      // Still toggled for this page.
    }
  };

  return (
    <Paper
      component="aside"
      aria-label={t('video.title')}
      shadow="md"
      radius="md"
      withBorder
      data-testid="walkthrough-video"
      style={{ position: 'fixed', right: 16, bottom: 16, zIndex: 150, width: hidden ? 'auto' : 'min(360px, calc(100vw - 32px))', overflow: 'hidden' }}
    >
      <Group justify="space-between" gap="xs" px="sm" py={6} wrap="nowrap">
        <Text size="sm" fw={600}>
          {t('video.title')}
        </Text>
        <Button
          size="compact-sm"
          variant="subtle"
          onClick={toggle}
          aria-expanded={!hidden}
          aria-controls={bodyId}
          rightSection={hidden ? <IconChevronUp size={16} aria-hidden /> : <IconChevronDown size={16} aria-hidden />}
          data-testid="walkthrough-video-toggle"
        >
          {hidden ? t('video.show') : t('video.hide')}
        </Button>
      </Group>
      <div id={bodyId} hidden={hidden}>
        {!hidden &&
          (source.kind === 'embed' ? (
            <iframe
              src={source.src}
              title={t('video.title')}
              style={{ display: 'block', width: '100%', aspectRatio: '16 / 9', border: 0 }}
              allow="encrypted-media; picture-in-picture; fullscreen"
              referrerPolicy="strict-origin-when-cross-origin"
              loading="lazy"
            />
          ) : (
            <video src={source.src} controls preload="metadata" style={{ display: 'block', width: '100%' }} data-testid="walkthrough-video-player" />
          ))}
      </div>
    </Paper>
  );
}
