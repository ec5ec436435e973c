import { describeError } from "./describe-error.js";
import type { RoundDependencies } from "./round-dependencies.js";
import type { StartOutcome } from "./start-round.js";

/**
 * Runs `work` once per webhook delivery id: a delivery already recorded is a
 * duplicate and starts nothing. If `work` fails, the delivery is forgotten
 * before the error goes on, so GitHub's redelivery of it runs again instead
 * of being skipped as a duplicate. (What `work` did before failing must be
 * safe to repeat: startRound joins the round already running for the head.)
 */
export async function oncePerDelivery(
  delivery: { id: string; name: string },
  deps: Pick<RoundDependencies, "store" | "clock" | "log">,
  work: () => Promise<StartOutcome>,
): Promise<StartOutcome> {
  const receivedAt = new Date(deps.clock.now());
  if ((await deps.store.recordDelivery(delivery.id, delivery.name, receivedAt)) === "duplicate") {
    return { kind: "skipped", reason: "duplicate delivery" };
  }
  try {
    return await work();
  } catch (error) {
    await deps.store
      .forgetDelivery(delivery.id)
      .catch((forgetError: unknown) =>
        deps.log.error(
          { err: describeError(forgetError) },
          "could not forget the failed delivery; its redelivery will be skipped as a duplicate",
        ),
      );
    throw error;
  }
}
