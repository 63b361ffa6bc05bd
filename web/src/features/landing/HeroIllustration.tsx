// Product preview drawn in CSS, shown when no landing_image_src is configured (no stock image needed).
import { IconSparkles } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import classes from './landing.module.css';

export function HeroIllustration({ appName, t }: { appName: string; t: TFunction<'landing'> }) {
  return (
    <figure className={classes.mock} role="img" aria-label={t('illustration.label', { app: appName })} style={{ margin: 0 }}>
      <div aria-hidden="true">
        <div className={classes.mockBar}>
          <span className={classes.mockDot} />
          <span className={classes.mockDot} />
          <span className={classes.mockDot} />
        </div>
        <div className={classes.mockBody}>
          <div className={classes.mockSidebar}>
            <div className={classes.mockChat}>{t('illustration.sidebar1')}</div>
            <div className={`${classes.mockChat} ${classes.mockChatActive}`}>{t('illustration.sidebar2')}</div>
            <div className={classes.mockChat}>{t('illustration.sidebar3')}</div>
          </div>
          <div className={classes.mockMain}>
            <div className={classes.bubbleUser}>{t('illustration.question')}</div>
            <div className={classes.bubbleAi}>
              <div>{t('illustration.answer1')}</div>
              <div>{t('illustration.answer2')}</div>
              <div>{t('illustration.answer3')}</div>
              <div className={classes.typing}>
                <span />
                <span />
                <span />
              </div>
            </div>
          </div>
        </div>
        <div className={classes.mockBadge}>
          <IconSparkles size={14} />
          {t('illustration.words')}
        </div>
      </div>
    </figure>
  );
}
