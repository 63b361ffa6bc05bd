import { CONFIG_KEYS } from '@pluma/common/appconfig';
import { describe, expect, it } from 'vitest';
import { landingContent, safeUrl } from './landing-content';

const spanish = (key: string) => `ES:${key}`;

describe('landingContent', () => {
  it('uses the shipped defaults when the configuration is missing', () => {
    const content = landingContent(undefined, 'en', spanish);
    expect(content.appName).toBe(CONFIG_KEYS.app_name.default);
    expect(content.title).toBe(CONFIG_KEYS.title.default);
    expect(content.tagline).toBe(CONFIG_KEYS.tagline.default);
    expect(content.features.map((f) => f.title)).toEqual([
      CONFIG_KEYS.feature1_title.default,
      CONFIG_KEYS.feature2_title.default,
      CONFIG_KEYS.feature3_title.default,
    ]);
    expect(content.benefits).toEqual([]);
    expect(content.offer).toBeNull();
    expect(content.imageSrc).toBeNull();
  });

  it('shows configured values as written', () => {
    const content = landingContent(
      [
        { key: 'app_name', value: 'Tinta' },
        { key: 'title', value: 'Write like a pro' },
        { key: 'feature2_title', value: '' },
        { key: 'benefit1_title', value: 'Weekly coaching' },
        { key: 'benefit1_description', value: 'Live calls' },
        { key: 'benefit3_title', value: 'Private community' },
        { key: 'high_ticket_offer_name', value: 'Mastermind' },
        { key: 'high_ticket_offer_link', value: 'https://example.com/mastermind' },
        { key: 'landing_bg_className', value: 'bg-brand' },
      ],
      'en',
      spanish,
    );
    expect(content.appName).toBe('Tinta');
    expect(content.title).toBe('Write like a pro');
    // A feature without a title is left out.
    expect(content.features).toHaveLength(2);
    expect(content.benefits).toEqual([
      { title: 'Weekly coaching', description: 'Live calls' },
      { title: 'Private community', description: '' },
    ]);
    expect(content.offer).toEqual({ name: 'Mastermind', link: 'https://example.com/mastermind' });
    expect(content.bgClassName).toBe('bg-brand');
  });

  it('translates unchanged default copy on the Spanish landing but keeps operator text', () => {
    const content = landingContent([{ key: 'feature1_title', value: 'Chat sin límites' }], 'es', spanish);
    expect(content.title).toBe('ES:title');
    expect(content.tagline).toBe('ES:tagline');
    expect(content.features[0].title).toBe('Chat sin límites');
    expect(content.features[1].title).toBe('ES:feature2_title');
  });

  it('never turns a non-web URL into a link or image', () => {
    const content = landingContent(
      [
        { key: 'high_ticket_offer_link', value: 'javascript:alert(1)' },
        { key: 'landing_image_src', value: 'data:text/html,<script>' },
        { key: 'landing_logo_src', value: '/api/files/logo.png' },
      ],
      'en',
      spanish,
    );
    expect(content.offer).toBeNull();
    expect(content.imageSrc).toBeNull();
    expect(content.logoSrc).toBe('/api/files/logo.png');
  });

  it('accepts a support email only when it looks like one', () => {
    expect(landingContent([{ key: 'email', value: 'hola@tinta.mx' }], 'en', spanish).supportEmail).toBe('hola@tinta.mx');
    expect(landingContent([{ key: 'email', value: 'nope' }], 'en', spanish).supportEmail).toBeNull();
  });
});

describe('safeUrl', () => {
  it('allows http(s) and same-site paths only', () => {
    expect(safeUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    expect(safeUrl('http://example.com')).toBe('http://example.com/');
    expect(safeUrl('/images/hero.png')).toBe('/images/hero.png');
    expect(safeUrl('//evil.example.com/x')).toBeNull();
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('  ')).toBeNull();
  });
});
