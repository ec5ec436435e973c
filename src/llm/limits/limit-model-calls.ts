import type { LanguageModel } from "../language-model.js";
import { wrapLanguageModel } from "../wrap-language-model.js";
import type { ModelCallLimiter, ModelCallSlot } from "./model-call-limiter.js";

export interface ModelCallSample {
  provider: string;
  model: string;
  /** The call itself, not the wait for a slot. */
  seconds: number;
  outcome: "ok" | "error";
}

export interface LimitModelCallsOptions {
  /** Milliseconds, for the latency samples. */
  now?: () => number;
  onCall?: (sample: ModelCallSample) => void;
}

/**
 * The model with every call (a chat turn, or an agent's whole run) holding one
 * of its provider's slots while in flight. Waiting for a slot ends when the
 * call's signal aborts; a slot is always given back, even when the call throws.
 */
export function limitModelCalls(
  model: LanguageModel,
  limiter: ModelCallLimiter,
  options: LimitModelCallsOptions = {},
): LanguageModel {
  const now = options.now ?? Date.now;
  const limited = async <T>(signal: AbortSignal | undefined, call: () => Promise<T>) => {
    const slot = await limiter.acquire(model.provider, signal);
    const started = now();
    let outcome: ModelCallSample["outcome"] = "error";
    try {
      const result = await call();
      outcome = "ok";
      return result;
    } finally {
      options.onCall?.({
        provider: model.provider,
        model: model.modelId,
        seconds: (now() - started) / 1000,
        outcome,
      });
      await releaseQuietly(slot);
    }
  };
  return wrapLanguageModel(model, {
    chat: (request, next) => limited(request.signal, () => next(request)),
    run: (request, next) => limited(request.signal, () => next(request)),
  });
}

/** A release that fails (database unreachable) must not fail the call: the lease runs out by itself. */
async function releaseQuietly(slot: ModelCallSlot): Promise<void> {
  try {
    await slot.release();
  } catch {
    // The slot's lease expires; the cap is restored then.
  }
}
