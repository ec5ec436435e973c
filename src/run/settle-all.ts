/**
 * Runs `work` for every item at once and resolves with their results in order. The first to throw
 * aborts `stop` (which the others listen to), and this waits until every one has settled before
 * it throws that first error: a round whose save failed does not return while its other sessions
 * still call models.
 */
export async function settleAll<Item, Result>(
  items: readonly Item[],
  work: (item: Item) => Promise<Result>,
  stop: AbortController,
): Promise<Result[]> {
  const outcomes = await Promise.allSettled(
    items.map(async (item) => {
      try {
        return await work(item);
      } catch (error) {
        if (!stop.signal.aborted) stop.abort("round failed");
        throw error;
      }
    }),
  );
  const rejected = outcomes.find((outcome) => outcome.status === "rejected");
  if (rejected !== undefined) throw rejected.reason;
  return outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
}
