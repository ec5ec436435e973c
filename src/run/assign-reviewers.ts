/**
 * Which models review each lens when a round runs fewer than all of them (a small step):
 * `perLens` distinct models per lens, lens → model ids in config order of the lenses.
 *
 * The lenses' slots (lens by lens, `perLens` each) are dealt to the models in turn, starting at
 * the round's number: consecutive slots go to different models, so each model gets the same
 * number of lenses give or take one, and the next round starts one model further on, so over as
 * many successive rounds as there are models every model covers every lens. Deterministic: a
 * round resumed after a restart deals the same. `perLens` at or above the number of models
 * gives every model every lens.
 */
export function assignReviewers(
  models: readonly string[],
  lenses: readonly string[],
  perLens: number,
  round: number,
): Map<string, string[]> {
  const count = models.length;
  if (count === 0) return new Map(lenses.map((lens) => [lens, []]));
  const each = Math.min(Math.max(1, Math.floor(perLens)), count);
  const start = ((Math.floor(round) % count) + count) % count;
  return new Map(
    lenses.map((lens, index) => {
      const assigned = Array.from(
        { length: each },
        (_, slot) => models[(start + index * each + slot) % count] as string,
      );
      // Config order within a lens, as every other list of models is shown.
      return [lens, models.filter((model) => assigned.includes(model))];
    }),
  );
}
