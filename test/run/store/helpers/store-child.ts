/**
 * A second process for the store's process-level tests, run with
 * `node --import tsx store-child.ts <command> <path> …`:
 * - `race <path> <count>`: prints "ready", waits for a line on stdin, then records
 *   deliveries d-0…d-<count-1> and starts a round for PRs 1…<count>; prints what it won.
 * - `crash <path>`: writes part of a round, prints the round id, then SIGKILLs itself.
 */
import { once } from "node:events";
import { SqliteRunStore } from "../../../../src/run/store/sqlite-run-store.js";
import { sampleLensReport } from "../../../builders/lens-report.js";

const [command, path, count] = process.argv.slice(2);
if (path === undefined) throw new Error("usage: store-child.ts race|crash <path> [count]");
const store = await SqliteRunStore.open(path);
const repo = { owner: "octo-org", repo: "widgets" };

if (command === "race") {
  process.stdout.write("ready\n");
  await once(process.stdin, "data");
  const newDeliveries: string[] = [];
  const createdRounds: string[] = [];
  for (let index = 0; index < Number(count); index++) {
    const id = `d-${index}`;
    if ((await store.recordDelivery(id, "pull_request", new Date())) === "new") {
      newDeliveries.push(id);
    }
    const { round, created } = await store.startRound({
      repo,
      installationId: 42,
      pullNumber: index + 1,
      headSha: "aaa111",
      trigger: { kind: "push", deliveryId: id },
    });
    if (created) createdRounds.push(round.id);
  }
  await store.close();
  process.stdout.write(`${JSON.stringify({ newDeliveries, createdRounds })}\n`);
  process.stdin.destroy();
} else if (command === "crash") {
  const { round } = await store.startRound({
    repo,
    installationId: 42,
    pullNumber: 7,
    headSha: "aaa111",
    trigger: { kind: "push", deliveryId: "d-crash" },
  });
  await store.claimRound(round.id, { owner: "crashing-child", leaseMs: 60_000 });
  await store.saveLensReport(round.id, sampleLensReport());
  await store.saveLensReport(round.id, sampleLensReport({ lens: "correctness" }));
  await store.markLensRunning(round.id, "glm-5.2:cloud", "performance");
  await store.saveTranscript(round.id, "glm-5.2:cloud", "performance", [
    { role: "user", content: "review this" },
  ]);
  process.stdout.write(`${round.id}\n`, () => process.kill(process.pid, "SIGKILL"));
} else {
  throw new Error(`unknown command ${command}`);
}
