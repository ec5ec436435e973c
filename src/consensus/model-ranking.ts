/**
 * Position of each model in the configured order; models missing from it come after, sorted
 * by id, so a ranking never depends on the order findings arrived in.
 */
export function modelRanking(
  modelOrder: readonly string[],
  models: Iterable<string>,
): (model: string) => number {
  const ranks = new Map<string, number>();
  for (const model of modelOrder) {
    if (!ranks.has(model)) {
      ranks.set(model, ranks.size);
    }
  }
  const unknown = [...new Set(models)].filter((model) => !ranks.has(model)).sort();
  for (const model of unknown) {
    ranks.set(model, ranks.size);
  }
  return (model) => ranks.get(model) ?? ranks.size;
}
