import { describe, expect, it } from 'vitest';
import { initialPromptState, promptReducer, visiblePrompt, type PromptState } from './prompt-state';

const CONVERSATION = 3;
const frame = (content: string, enhance_id = 'e1', conversation_id = CONVERSATION) => ({ enhance_id, conversation_id, content, stream: true as const, isThread: false as const });

function enhancing(): PromptState {
  let state = promptReducer(initialPromptState(CONVERSATION), { type: 'typed', text: 'write a post about dogs' });
  state = promptReducer(state, { type: 'enhanceStarted' });
  return state;
}

describe('prompt enhancement', () => {
  it('streams the enhanced text, then the end replaces the prompt', () => {
    let state = enhancing();
    state = promptReducer(state, { type: 'enhanceDelta', payload: frame('Write ') });
    state = promptReducer(state, { type: 'enhanceDelta', payload: frame('') });
    state = promptReducer(state, { type: 'enhanceDelta', payload: frame('undefined') });
    state = promptReducer(state, { type: 'enhanceAccepted', id: 'e1' });
    state = promptReducer(state, { type: 'enhanceDelta', payload: frame('a blog post') });
    expect(visiblePrompt(state)).toBe('Write a blog post');
    // Typing is ignored while enhancing.
    expect(promptReducer(state, { type: 'typed', text: 'x' })).toBe(state);
    state = promptReducer(state, { type: 'enhanceEnded', payload: frame('Write a friendly blog post about dogs for new owners.') });
    expect(state.enhancement).toBeNull();
    expect(state.text).toBe('Write a friendly blog post about dogs for new owners.');
  });

  it('ignores frames of another enhancement or conversation', () => {
    let state = enhancing();
    state = promptReducer(state, { type: 'enhanceAccepted', id: 'e1' });
    expect(promptReducer(state, { type: 'enhanceDelta', payload: frame('x', 'other') })).toBe(state);
    expect(promptReducer(state, { type: 'enhanceEnded', payload: frame('x', 'e1', 99) })).toBe(state);
  });

  it('a failure puts the typed prompt back', () => {
    let state = enhancing();
    state = promptReducer(state, { type: 'enhanceDelta', payload: frame('Partial') });
    state = promptReducer(state, { type: 'enhanceFailed' });
    expect(state).toMatchObject({ text: 'write a post about dogs', enhancement: null });
  });

  it('an empty result keeps the typed prompt', () => {
    let state = enhancing();
    state = promptReducer(state, { type: 'enhanceEnded', payload: frame('   ') });
    expect(state.text).toBe('write a post about dogs');
  });
});

describe('sending', () => {
  it('a failed send puts the prompt back unless something new was typed', () => {
    let state = promptReducer(initialPromptState(CONVERSATION), { type: 'typed', text: '' });
    state = promptReducer(state, { type: 'restored', text: 'my prompt' });
    expect(state.text).toBe('my prompt');
    state = promptReducer(state, { type: 'typed', text: 'new text' });
    expect(promptReducer(state, { type: 'restored', text: 'my prompt' }).text).toBe('new text');
  });
});
