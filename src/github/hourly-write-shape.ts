import type { TokenBucketShape } from "../run/queue/index.js";

/**
 * The hourly bucket that lets at most `perHour` content-creating requests through in any 60
 * minutes. A bucket gives at most its capacity plus its refill in any window, so half is the
 * burst after a quiet hour and the other half comes back over the hour (500: bursts of 250,
 * then 250 an hour). A bucket of `perHour` refilled at `perHour` an hour would let twice that
 * through in the hour after a quiet one, which GitHub's hourly limit refuses. Half and half:
 * a batch of pull requests opened at once (ten rounds write ~290 times in a few minutes, most
 * of them board edits, which yield) is not held back for an hour, and a steadily busy
 * installation still gets 250 an hour; an exact sliding window would give both in full.
 */
export function hourlyWriteShape(perHour: number): TokenBucketShape {
  if (!(perHour >= 2)) throw new RangeError(`an hourly write limit needs 2 or more: ${perHour}`);
  const capacity = Math.max(1, Math.round(perHour / 2));
  return { capacity, perMinute: (perHour - capacity) / 60 };
}
