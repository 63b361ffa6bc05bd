// Contract between the AI providers (platform/ai) and the features that generate text (messages...).
export type ProviderName = 'openai' | 'anthropic' | 'xai' | 'compat' | 'demo';

export interface ChatModelInfo {
  /** Value stored on a conversation/message, e.g. 'gpt-4o-mini', 'claude-3-5-sonnet-latest', 'demo'. */
  id: string;
  /** Label shown in the model picker, e.g. 'GPT 4o Mini', 'Grok', 'Claude', 'Demo (offline)'. */
  label: string;
  provider: ProviderName;
  /** True for the model used when a conversation's model is unset (null). */
  isDefault: boolean;
}

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
  /**
   * Files a user turn carries natively (spec part 2 §9: Claude's pdf, jpeg, png, gif, webp): Anthropic gets
   * them as document/image blocks before the text; providers without them ignore them.
   */
  attachments?: ChatAttachment[];
}

export type ChatAttachmentMediaType = 'application/pdf' | 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export interface ChatAttachment {
  mediaType: ChatAttachmentMediaType;
  /** The file's bytes, base64. */
  data: string;
  /** The file's name (a document block's title). */
  title?: string;
}

/**
 * Keys a call brings instead of the operator's: an organization's own OpenAI key (spec part 2 §3
 * Organization `openai_api_key`). Never logged, never part of an error or a response.
 */
export interface ProviderCredentials {
  openaiApiKey: string;
}

export interface ChatStreamRequest {
  /** null → the default model. */
  model: string | null;
  messages: ChatTurn[];
  maxTokens?: number;
  signal?: AbortSignal;
  /** The scope's own keys (organization-keys.ts); absent → the operator's. */
  credentials?: ProviderCredentials;
}

export type ChatStreamEvent =
  | { type: 'delta'; text: string }
  | { type: 'done'; finishReason: string | null; usage: { inputTokens: number; outputTokens: number } | null };

/** A provider failure; thrown by `stream` (before or during iteration). */
export class ProviderError extends Error {
  constructor(
    readonly provider: ProviderName,
    /** HTTP status from the provider (500 when the connection dropped). */
    readonly status: number,
    /** The provider's own error code/type, when it sent one. */
    readonly code: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface AiService {
  /** The models offered now; with a scope's own keys (an organization's OpenAI key), those its keys reach. */
  listModels(credentials?: ProviderCredentials): Promise<ChatModelInfo[]>;
  /**
   * Streams a chat completion. Throws ProviderError (also mid-stream) and respects `signal`: once it is
   * aborted the request is cancelled and iteration throws the signal's reason (an AbortError by default).
   * A model that is not offered (null, unknown, or its provider's key was removed) runs on the default model.
   */
  stream(request: ChatStreamRequest): AsyncIterable<ChatStreamEvent>;
  /** The provider name a model id resolves to (for error events: openai-error vs anthropic-error). */
  providerOf(model: string | null): Promise<ProviderName>;
  /** Releases what the service started (the in-process demo emulator); called when the app closes. */
  close?(): Promise<void>;
}

/** Where the offline demo model answers: an OpenAI-compatible base URL, started on first use (server/src/demo/ai.ts). */
export interface DemoModel {
  url(): Promise<string>;
  close(): Promise<void>;
}
