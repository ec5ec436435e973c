import type { FakeModelRequest } from "./model-script.js";

/** Bytes per token the fakes assume (about what providers' tokenizers give for code and English). */
export const BYTES_PER_TOKEN = 4;
/** OpenAI caches a prompt prefix only from 1,024 tokens, in steps of 128. */
const CACHE_MIN_TOKENS = 1_024;
const CACHE_STEP_TOKENS = 128;
/** Earlier prompts of a model a new one is compared with: a provider's cache is not endless either. */
const REMEMBERED_PROMPTS = 64;

export interface FakeUsage {
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, the prefix an earlier prompt of the same model shared (prefix caching). */
  cachedInputTokens: number;
}

/**
 * Token counts as a provider would report them for a request a fake answered: input from the
 * bytes of the messages and tools sent, output from the answer's bytes, and (when asked) the
 * cached part of the input — the longest prefix shared with an earlier prompt of the same
 * model, counted the way OpenAI's automatic prompt caching does. Byte-identical stable
 * prefixes are what make this number grow, as with the real providers.
 */
export class FakeUsageMeter {
  private readonly prompts = new Map<string, string[]>();

  measure(request: FakeModelRequest, answer: string, options: { caching: boolean }): FakeUsage {
    const prompt = JSON.stringify({ messages: request.messages, tools: request.tools });
    const inputTokens = tokens(prompt);
    const outputTokens = Math.max(1, tokens(answer));
    const earlier = this.prompts.get(request.model) ?? [];
    let cachedInputTokens = 0;
    if (options.caching) {
      const shared = Math.max(0, ...earlier.map((previous) => commonPrefix(previous, prompt)));
      const sharedTokens = Math.floor(shared / BYTES_PER_TOKEN);
      if (sharedTokens >= CACHE_MIN_TOKENS) {
        cachedInputTokens = Math.floor(sharedTokens / CACHE_STEP_TOKENS) * CACHE_STEP_TOKENS;
      }
    }
    this.prompts.set(request.model, [...earlier, prompt].slice(-REMEMBERED_PROMPTS));
    return {
      inputTokens,
      outputTokens,
      cachedInputTokens: Math.min(cachedInputTokens, inputTokens),
    };
  }
}

function tokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, "utf8") / BYTES_PER_TOKEN);
}

function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}
