/**
 * The testing kit: a deterministic scripted model and a fake model server (OpenAI chat
 * completions and Responses, Anthropic Messages), for testing teams without API keys.
 * @module
 */
export * from './testing/index.js';
