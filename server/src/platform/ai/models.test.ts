import { describe, expect, it } from 'vitest';
import { finishReasonOf, toAnthropicMessages } from './anthropic-chat';
import { DEMO_MODEL, guessProvider, MODEL_IDS, offeredModels, resolveModel, type ProviderAvailability } from './models';

const none: ProviderAvailability = { openai: false, anthropic: false, xai: false, compatModels: [], demo: true };

describe('offeredModels', () => {
  it('makes the first offered model the default when there is no OpenAI key', () => {
    const models = offeredModels({ ...none, anthropic: true, xai: true });
    expect(models.map((m) => [m.id, m.isDefault])).toEqual([
      ['grok-2-latest', true],
      [MODEL_IDS.claude, false],
    ]);
  });

  it('lets a built-in model keep its id when a compatible server reuses the name', () => {
    const models = offeredModels({ ...none, openai: true, compatModels: ['gpt-4o-mini', 'mistral'] });
    expect(models.map((m) => `${m.id}:${m.provider}`)).toEqual(['gpt-4o-mini:openai', 'mistral:compat']);
  });

  it('offers the demo model only when nothing else is configured and demo mode is on', () => {
    expect(offeredModels(none)).toEqual([DEMO_MODEL]);
    expect(offeredModels({ ...none, demo: false })).toEqual([]);
    expect(offeredModels({ ...none, compatModels: ['llama3'] }).map((m) => m.id)).toEqual(['llama3']);
  });
});

describe("the admin's default model (openai_model)", () => {
  it('makes an offered model the default, over GPT 4o Mini', () => {
    const models = offeredModels({ ...none, openai: true, anthropic: true, preferredModel: MODEL_IDS.claude });
    expect(models.filter((m) => m.isDefault).map((m) => m.id)).toEqual([MODEL_IDS.claude]);
    expect(resolveModel(models, null)?.id).toBe(MODEL_IDS.claude);
  });

  it('offers a model the catalog does not name through OpenAI, as the default', () => {
    const models = offeredModels({ ...none, openai: true, preferredModel: 'gpt-4.1' });
    expect(models.map((m) => [m.id, m.provider, m.isDefault])).toEqual([
      ['gpt-4o-mini', 'openai', false],
      ['gpt-4.1', 'openai', true],
    ]);
  });

  it('falls back to the built-in default when its provider is not configured', () => {
    expect(offeredModels({ ...none, openai: true, preferredModel: MODEL_IDS.claude }).find((m) => m.isDefault)?.id).toBe('gpt-4o-mini');
    expect(offeredModels({ ...none, anthropic: true, preferredModel: 'gpt-4.1' }).map((m) => m.id)).toEqual([MODEL_IDS.claude]);
  });
});

describe('resolveModel', () => {
  const models = offeredModels({ ...none, openai: true, anthropic: true });
  it('returns the requested model when offered, else the default', () => {
    expect(resolveModel(models, MODEL_IDS.claude)?.provider).toBe('anthropic');
    expect(resolveModel(models, null)?.id).toBe('gpt-4o-mini');
    expect(resolveModel(models, 'demo')?.id).toBe('gpt-4o-mini');
    expect(resolveModel([], null)).toBeNull();
  });

  it('guesses a provider from a model name when nothing is configured', () => {
    expect(guessProvider('claude-x')).toBe('anthropic');
    expect(guessProvider('grok-2-latest')).toBe('xai');
    expect(guessProvider(null)).toBe('openai');
  });
});

describe('Anthropic request shape', () => {
  it('moves system turns to the system parameter, drops empty turns and joins same-role neighbours', () => {
    expect(
      toAnthropicMessages([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'One' },
        { role: 'assistant', content: '  ' },
        { role: 'user', content: 'Two' },
        { role: 'assistant', content: 'Answer' },
        { role: 'system', content: 'Use Spanish.' },
      ]),
    ).toEqual({
      system: 'Be brief.\n\nUse Spanish.',
      messages: [
        { role: 'user', content: 'One\n\nTwo' },
        { role: 'assistant', content: 'Answer' },
      ],
    });
    expect(toAnthropicMessages([{ role: 'user', content: 'Hi' }]).system).toBeUndefined();
  });

  it("maps stop reasons to OpenAI's finish reasons", () => {
    expect(finishReasonOf('end_turn')).toBe('stop');
    expect(finishReasonOf('max_tokens')).toBe('length');
    expect(finishReasonOf('refusal')).toBe('content_filter');
    expect(finishReasonOf(null)).toBeNull();
  });
});
