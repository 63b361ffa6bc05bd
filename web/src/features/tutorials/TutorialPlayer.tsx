// Plays a tutorial (spec part 2 §2: "/tutorials/{tutorial_id} plays the video (src link)"): YouTube and
// Vimeo in their embedded player — the address rebuilt from the video id by tutorialPlayer, never the link
// as stored — and any other video address in <video controls>. A source that is not playable shows a note.
import { Alert, AspectRatio } from '@mantine/core';
import { tutorialPlayer, type Tutorial } from '@pluma/common/tutorials';
import { useTranslation } from 'react-i18next';

export function TutorialPlayer({ tutorial }: { tutorial: Pick<Tutorial, 'name' | 'src' | 'thumbnail'> }) {
  const { t } = useTranslation('tutorials');
  const player = tutorialPlayer(tutorial.src);
  if (player.kind === 'invalid')
    return (
      <Alert color="yellow" data-testid="tutorial-unplayable">
        {t('player.unplayable')}
      </Alert>
    );
  return (
    <AspectRatio ratio={16 / 9} maw={960}>
      {player.kind === 'embed' ? (
        <iframe
          src={player.url}
          title={t('player.title', { name: tutorial.name })}
          allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          // The player's own scripts run in its own origin; it may not navigate this page.
          sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"
          style={{ border: 0, borderRadius: 'var(--mantine-radius-md)' }}
          data-testid="tutorial-embed"
        />
      ) : (
        <video
          src={player.url}
          controls
          preload="metadata"
          poster={tutorial.thumbnail ?? undefined}
          aria-label={t('player.title', { name: tutorial.name })}
          style={{ borderRadius: 'var(--mantine-radius-md)', background: '#000' }}
          data-testid="tutorial-video"
        >
          {t('player.noVideoSupport')}
        </video>
      )}
    </AspectRatio>
  );
}
