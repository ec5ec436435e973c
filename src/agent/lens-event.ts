import type { Verdict } from "../findings/index.js";

/** Which reviewer an event is about: one model through one lens. */
export interface LensEventSource {
  /** Model id from the app config. */
  model: string;
  provider: string;
  lens: string;
}

/**
 * Progress of one (model, lens) review, for the status board. `queued` is
 * emitted by whoever schedules the review; reviewLens emits the rest. Texts
 * are safe to publish (no stack, no key) but come partly from the model
 * (tool summaries): a renderer must still escape them.
 */
export type LensEvent = LensEventSource & {
  /** Milliseconds since the epoch, from the injected clock. */
  at: number;
} & (
    | { type: "queued" }
    | { type: "running"; turn: number }
    | { type: "tool"; turn: number; name: string; summary: string }
    | { type: "verifying"; findings: number }
    | { type: "done"; verdict: Verdict; findings: number; dropped: number }
    | { type: "failed"; reason: string }
    | { type: "cancelled"; reason: string }
    /** Never started: a rule kept this model from the pull request (emitted by the round). */
    | { type: "skipped"; reason: string }
    /**
     * The lens goes on on the next model of its chain (emitted by the round): `from` failed it
     * with `reason` (short and public, e.g. "503"); the source stays the planned model.
     */
    | { type: "failover"; from: string; to: string; reason: string }
  );

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event as reviewLens builds it, before the source and the time are added. */
export type LensEventBody = DistributiveOmit<LensEvent, keyof LensEventSource | "at">;
