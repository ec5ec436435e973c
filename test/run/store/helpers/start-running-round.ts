import type { RunStore } from "../../../../src/run/store/run-store.js";
import { claimRound } from "./claim-round.js";

/** A round of octo-org/widgets#`pullNumber`, started by a push and claimed by a test worker: its id. */
export async function startRunningRound(store: RunStore, pullNumber: number): Promise<string> {
  const { round } = await store.startRound({
    repo: { owner: "octo-org", repo: "widgets" },
    installationId: 42,
    pullNumber,
    headSha: "aaa111",
    trigger: { kind: "push", deliveryId: `d-${pullNumber}` },
  });
  await claimRound(store, round.id);
  return round.id;
}
