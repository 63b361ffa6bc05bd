// How a tutorial's video plays (tutorialPlayer): embeds only for YouTube and Vimeo, rebuilt from the video
// id; other http(s) addresses in <video>; everything else refused.
import { describe, expect, it } from 'vitest';
import { createTutorialRequest, isTutorialThumbnailUrl, tutorialPlayer } from './tutorials';

describe('tutorialPlayer', () => {
  it('embeds YouTube links of every common shape through youtube-nocookie, from the id only', () => {
    for (const src of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ?si=abc',
      'https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1&onload=alert(1)',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      'http://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    ]) {
      expect(tutorialPlayer(src)).toEqual({ kind: 'embed', provider: 'youtube', videoId: 'dQw4w9WgXcQ', url: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' });
    }
  });

  it('embeds Vimeo links', () => {
    for (const src of ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871?h=x']) {
      expect(tutorialPlayer(src)).toEqual({ kind: 'embed', provider: 'vimeo', videoId: '76979871', url: 'https://player.vimeo.com/video/76979871' });
    }
  });

  it('plays other http(s) addresses in <video>', () => {
    expect(tutorialPlayer('https://cdn.example.com/tour.mp4')).toEqual({ kind: 'video', url: 'https://cdn.example.com/tour.mp4' });
    // A look-alike host is not YouTube: never embedded, only a plain video address.
    expect(tutorialPlayer('https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ').kind).toBe('video');
  });

  it('refuses hostile or unplayable sources', () => {
    for (const src of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'data:video/mp4;base64,AAAA',
      'blob:https://x/1',
      'ftp://example.com/a.mp4',
      '//example.com/a.mp4',
      '/api/files/../../etc',
      // A private file needs its owner's token, which a <video> element cannot send (docs/decisions.md).
      '/api/files/12',
      'https://u:p@example.com/a.mp4',
      'https://www.youtube.com/@channel',
      'https://www.youtube.com/watch?v=<script>',
      'https://vimeo.com/about',
      '',
    ]) {
      expect(tutorialPlayer(src).kind, src).toBe('invalid');
    }
  });

  it('thumbnails: http(s) or a public image of this server', () => {
    expect(isTutorialThumbnailUrl('https://img.example.com/a.png')).toBe(true);
    expect(isTutorialThumbnailUrl('/api/files/abcdefghijklmnop.png')).toBe(true);
    expect(isTutorialThumbnailUrl('javascript:alert(1)')).toBe(false);
    expect(isTutorialThumbnailUrl('/api/files/12')).toBe(false);
  });

  it('the create request trims and checks', () => {
    const ok = createTutorialRequest.safeParse({ name: ' A ', language: 'es', src: ' https://youtu.be/dQw4w9WgXcQ ' });
    expect(ok.success && ok.data).toMatchObject({ name: 'A', src: 'https://youtu.be/dQw4w9WgXcQ' });
    expect(createTutorialRequest.safeParse({ name: 'A', language: 'en', src: 'javascript:alert(1)' }).success).toBe(false);
  });
});
