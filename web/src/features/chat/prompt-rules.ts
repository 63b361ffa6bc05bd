// spec part 2 §5 "Prompt": when Send and Enhance are offered. Pure, shared by the prompt box and its tests.
import { ENHANCE_MIN_CHARS, MAX_CONVERSATION_TOKENS } from '@pluma/common/constants';
import { estimateTokens } from '@pluma/common/rules/token-estimate';

export interface PromptContext {
  text: string;
  /** An answer is being written (or the prompt is being sent). */
  generating: boolean;
  enhancing: boolean;
  maxTokens?: number;
}

/** The token estimate (characters ÷ 4, rounded) is over the maximum (7500 for conversations). */
export function isOverTokenLimit(text: string, maxTokens: number = MAX_CONVERSATION_TOKENS): boolean {
  return estimateTokens(text) > maxTokens;
}

/** Send: disabled when empty, over the limit, or while generating or enhancing. */
export function canSend({ text, generating, enhancing, maxTokens }: PromptContext): boolean {
  return text.trim() !== '' && !isOverTokenLimit(text, maxTokens) && !generating && !enhancing;
}

/** Enhance shows only when the text is longer than 12 characters. */
export function showEnhance(text: string): boolean {
  return text.length > ENHANCE_MIN_CHARS;
}

/** ...and is disabled over the limit (and while an enhancement runs). */
export function canEnhance({ text, enhancing, maxTokens }: PromptContext): boolean {
  return showEnhance(text) && !isOverTokenLimit(text, maxTokens) && !enhancing;
}

/**
 * A token count with thousands grouped by commas ("7,500"), as en-US and es-MX write it (the words
 * balance uses those locales, platform/words.ts). Not Intl: its first use on a page costs ~30 ms of
 * start-up, paid while the conversation screen first renders.
 */
export function formatCount(count: number): string {
  return String(Math.trunc(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
