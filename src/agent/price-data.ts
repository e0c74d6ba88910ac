import { createRequire } from 'node:module';

type GenaiPrices = typeof import('@pydantic/genai-prices');

/**
 * Rates of one model, USD per million tokens: a `pricing` entry (input and output), or the
 * maintained data's, with the cache rates where it has them (else input tokens cost `input`).
 */
export interface KnownPrice {
  readonly input: number;
  readonly output: number;
  /** Input tokens read from the prompt cache. */
  readonly cachedInput?: number;
  /** Input tokens written to the prompt cache (Anthropic). */
  readonly cacheWrite?: number;
}

let data: GenaiPrices | undefined;
let loading = false;
const found = new Map<string, KnownPrice | undefined>();

// The data is about 0.5 MB of JavaScript: loaded when a run opens (in the background, see
// `loadPrices`) or on the first price asked for (at once, should that come first), so that
// the commands that only read a store (and every import of the library) do not pay for it.
// It is bundled in the package: nothing is fetched at run time. Both ways load its CommonJS
// build (480 KB, where its ES module build is 830 KB): one copy, whichever comes first.
function prices(): GenaiPrices {
  data ??= createRequire(import.meta.url)('@pydantic/genai-prices') as GenaiPrices;
  return data;
}

/**
 * Loads the price data once, as soon as the work at hand yields (a run starts it as it
 * opens), so that pricing its first model answer finds it loaded. A failure to load is left
 * for the first price to report.
 */
export function loadPrices(): void {
  if (data || loading) return;
  loading = true;
  setImmediate(() => {
    try {
      prices();
    } catch {
      // Reported by the first price asked for.
    }
  }).unref();
}

/** A rate as a number: tiered rates give their base (see `knownPrice`). */
function rate(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'object' && value !== null && 'base' in value && typeof value.base === 'number') {
    return value.base;
  }
  return undefined;
}

/**
 * The AI SDK names a provider with its API (`openai.responses`, `anthropic.messages`); the
 * price data by its maker (`openai`, `anthropic`).
 */
export function providerId(provider: string | undefined): string | undefined {
  const id = provider?.split('.')[0];
  return id === '' ? undefined : id;
}

/**
 * The price of `modelId` (on `provider`, when given) in `@pydantic/genai-prices`, or
 * `undefined` when it has none. Tiered rates (a higher rate past 200k input tokens) count
 * at their base rate: a turn's usage adds up several model calls, so its sum says nothing
 * about the size of any one of them, and a team's prompts stay far below the tiers.
 */
export function knownPrice(modelId: string, provider?: string): KnownPrice | undefined {
  const key = `${provider ?? ''}\n${modelId}`;
  if (found.has(key)) return found.get(key);
  const result = prices().calcPrice({ input_tokens: 0, output_tokens: 0 }, modelId, {
    providerId: providerId(provider),
  });
  const input = rate(result?.model_price.input_mtok);
  const output = rate(result?.model_price.output_mtok);
  const price: KnownPrice | undefined =
    input === undefined || output === undefined
      ? undefined
      : {
          input,
          output,
          ...optional('cachedInput', rate(result?.model_price.cache_read_mtok)),
          ...optional('cacheWrite', rate(result?.model_price.cache_write_mtok)),
        };
  found.set(key, price);
  return price;
}

function optional<K extends string>(name: K, value: number | undefined): { [P in K]?: number } {
  return (value === undefined ? {} : { [name]: value }) as { [P in K]?: number };
}
