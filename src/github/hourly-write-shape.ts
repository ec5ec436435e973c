import type { TokenBucketShape } from "../run/queue/index.js";

/**
 * The hourly bucket that lets at most `perHour` content-creating requests through in any 60
 * minutes. A bucket gives at most its capacity plus its refill in any window, so a fifth is
 * the burst after a quiet hour and the rest comes back over the hour (500: bursts of 100,
 * then 400 an hour). A bucket of `perHour` refilled at `perHour` an hour would let twice that
 * through in the hour after a quiet one, which GitHub's hourly limit refuses.
 */
export function hourlyWriteShape(perHour: number): TokenBucketShape {
  if (!(perHour >= 2)) throw new RangeError(`an hourly write limit needs 2 or more: ${perHour}`);
  const capacity = Math.max(1, Math.round(perHour / 5));
  return { capacity, perMinute: (perHour - capacity) / 60 };
}
