// The prompt box's text and its enhancement (spec part 2 §4: "Prompt enhancement: enhancing state, the
// result replaces the prompt"). The enhanced text streams in as message_stream_enhance deltas and is
// replaced by message_stream_enhance_end's whole text.
import type { MessageStreamEnhanceEndPayload, MessageStreamEnhancePayload } from '@pluma/common/events';
import { isUsefulChunk } from './chat-state';

export interface Enhancement {
  /** Known once POST /messages (enhance true) has answered; frames may arrive before that. */
  id: string | null;
  /** The prompt as typed, put back if the enhancement fails. */
  original: string;
  /** The enhanced text so far. */
  text: string;
}

export interface PromptState {
  conversationId: number;
  text: string;
  enhancement: Enhancement | null;
}

export type PromptAction =
  | { type: 'typed'; text: string }
  /** A send failed: the prompt comes back unless something new was typed meanwhile. */
  | { type: 'restored'; text: string }
  | { type: 'enhanceStarted' }
  | { type: 'enhanceAccepted'; id: string }
  | { type: 'enhanceDelta'; payload: MessageStreamEnhancePayload }
  | { type: 'enhanceEnded'; payload: MessageStreamEnhanceEndPayload }
  /** The request or the provider failed: the typed prompt comes back. */
  | { type: 'enhanceFailed'; id?: string | null };

export const initialPromptState = (conversationId: number): PromptState => ({ conversationId, text: '', enhancement: null });

function isMine(state: PromptState, payload: { enhance_id: string; conversation_id: number }): state is PromptState & { enhancement: Enhancement } {
  const { enhancement } = state;
  if (!enhancement || payload.conversation_id !== state.conversationId) return false;
  return enhancement.id === null || enhancement.id === payload.enhance_id;
}

export function promptReducer(state: PromptState, action: PromptAction): PromptState {
  switch (action.type) {
    case 'typed':
      return state.enhancement ? state : { ...state, text: action.text };
    case 'restored':
      return state.enhancement || state.text !== '' ? state : { ...state, text: action.text };
    case 'enhanceStarted':
      return state.enhancement ? state : { ...state, enhancement: { id: null, original: state.text, text: '' } };
    case 'enhanceAccepted':
      return state.enhancement && state.enhancement.id === null ? { ...state, enhancement: { ...state.enhancement, id: action.id } } : state;
    case 'enhanceDelta':
      if (!isMine(state, action.payload) || !isUsefulChunk(action.payload.content)) return state;
      return { ...state, enhancement: { ...state.enhancement, id: action.payload.enhance_id, text: state.enhancement.text + action.payload.content } };
    case 'enhanceEnded': {
      if (!isMine(state, action.payload)) return state;
      const enhanced = action.payload.content.trim();
      // An empty result keeps what the user wrote.
      return { ...state, text: enhanced || state.enhancement.original, enhancement: null };
    }
    case 'enhanceFailed': {
      const { enhancement } = state;
      if (!enhancement) return state;
      if (action.id && enhancement.id !== null && enhancement.id !== action.id) return state;
      return { ...state, text: enhancement.original, enhancement: null };
    }
  }
}

/** What the prompt box shows: the enhanced text streaming in, else the prompt. */
export function visiblePrompt(state: PromptState): string {
  return state.enhancement ? state.enhancement.text || state.enhancement.original : state.text;
}
