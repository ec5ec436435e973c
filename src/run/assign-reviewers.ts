import { createHash } from "node:crypto";

/**
 * Which models review each lens when a round runs fewer than all of them (a small step):
 * `perLens` distinct models per lens (more where `atLeast` asks), lens → model ids in config
 * order of the lenses.
 *
 * The models are shuffled by `seed` (smallStepSeed: an HMAC of a secret of the app's and the
 * head, so the author of a push cannot tell which model will review which lens, nor steer it by
 * timing pushes), then the lenses' slots (lens by lens) are dealt to them in turn: consecutive
 * slots go to different models, so each model gets the same number of lenses give or take one.
 * Deterministic for a seed: a round resumed after a restart deals the same. A count at or above
 * the number of models gives every model that lens.
 */
export function assignReviewers(
  models: readonly string[],
  lenses: readonly string[],
  perLens: number,
  seed: Uint8Array,
  atLeast: ReadonlyMap<string, number> = new Map(),
): Map<string, string[]> {
  const count = models.length;
  if (count === 0) return new Map(lenses.map((lens) => [lens, []]));
  const order = shuffled(models, seed);
  let cursor = 0;
  return new Map(
    lenses.map((lens) => {
      const wanted = Math.max(Math.floor(perLens), atLeast.get(lens) ?? 0, 1);
      const each = Math.min(wanted, count);
      const assigned = Array.from(
        { length: each },
        (_, slot) => order[(cursor + slot) % count] as string,
      );
      cursor += each;
      // Config order within a lens, as every other list of models is shown.
      return [lens, models.filter((model) => assigned.includes(model))];
    }),
  );
}

/** A Fisher–Yates shuffle drawing from SHA-256(seed, counter): the same seed, the same order. */
function shuffled(models: readonly string[], seed: Uint8Array): string[] {
  const order = [...models];
  let pool = Buffer.alloc(0);
  let counter = 0;
  const draw = () => {
    if (pool.length < 4) {
      pool = createHash("sha256").update(seed).update(String(counter++)).digest();
    }
    const value = pool.readUInt32BE(0);
    pool = pool.subarray(4);
    return value;
  };
  for (let index = order.length - 1; index > 0; index--) {
    const other = draw() % (index + 1);
    [order[index], order[other]] = [order[other] as string, order[index] as string];
  }
  return order;
}
