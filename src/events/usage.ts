/** Tokens of one turn, an agent or a run; `cost` in USD where the model is priced. */
export interface TokenUsage {
  /** Every input token, cached ones included. */
  readonly inputTokens: number;
  /** Every output token, reasoning ones included. */
  readonly outputTokens: number;
  /** Input and output tokens together. */
  readonly totalTokens: number;
  /** Input tokens read from the provider's prompt cache (part of `inputTokens`), where it reports them. */
  readonly cachedInputTokens?: number;
  /** Output tokens spent on reasoning (part of `outputTokens`), where the provider reports them. */
  readonly reasoningTokens?: number;
  /** `undefined` when any part of it came from a model without a price; `unpriced` says which. */
  readonly cost: number | undefined;
  /** Why `cost` is undefined: one line per model without a price (`no price for model llama3.2 on provider ollama`). */
  readonly unpriced?: readonly string[];
}
