import { describe, expect, it } from 'vitest';
import en from '../../i18n/chat.en.json';
import es from '../../i18n/chat.es.json';
import { providerErrorText } from './provider-error';

const translator = (messages: Record<string, unknown>) => (key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], messages) as string;

describe('providerErrorText', () => {
  it('status 500 shows the localized trouble text of the provider', () => {
    expect(providerErrorText('openai-error', { status: 500, message: 'boom' }, translator(en))).toBe('Sorry, OpenAI is having problems with your request.');
    expect(providerErrorText('anthropic-error', { status: 500, message: 'boom' }, translator(en))).toBe('Sorry, Claude is having problems with your request.');
    expect(providerErrorText('openai-error', { status: 500, message: 'boom' }, translator(es))).toBe('Lo sentimos, OpenAI tiene problemas con tu solicitud.');
  });

  it('other statuses show the prefix and the provider message', () => {
    expect(providerErrorText('openai-error', { status: 429, message: 'Rate limit reached' }, translator(en))).toBe('OpenAi Error: Rate limit reached');
    expect(providerErrorText('anthropic-error', { status: 400, message: 'Bad request' }, translator(en))).toBe('Anthropic Error: Bad request');
  });
});
