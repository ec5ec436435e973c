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
  // The first to fail in time, not in the items' order: the others fail because they were stopped.
  let first: { error: unknown } | undefined;
  const outcomes = await Promise.allSettled(
    items.map(async (item) => {
      try {
        return await work(item);
      } catch (error) {
        first ??= { error };
        if (!stop.signal.aborted) stop.abort("round failed");
        throw error;
      }
    }),
  );
  if (first !== undefined) throw first.error;
  return outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
}
