// A tutorial's picture: its thumbnail, or a video icon when it has none or the image does not load.
import { Center } from '@mantine/core';
import { IconVideo } from '@tabler/icons-react';
import { useState } from 'react';

export const THUMBNAIL_HEIGHT = 150;

export function TutorialThumbnail({ src }: { src: string | null }) {
  const [failed, setFailed] = useState<string | null>(null);
  const usable = src && failed !== src;
  return (
    <Center h={THUMBNAIL_HEIGHT} bg="var(--mantine-color-default-hover)" style={{ overflow: 'hidden', borderRadius: 'var(--mantine-radius-sm)' }}>
      {usable ? (
        // Decorative: the card's link is named by the tutorial's name beside it.
        <img src={src} alt="" loading="lazy" referrerPolicy="no-referrer" onError={() => setFailed(src)} style={{ width: '100%', height: '100%', objectFit: 'cover' }} data-testid="tutorial-thumbnail" />
      ) : (
        <IconVideo size={48} stroke={1.4} aria-hidden data-testid="tutorial-thumbnail-fallback" />
      )}
    </Center>
  );
}
