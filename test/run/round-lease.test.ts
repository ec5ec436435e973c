import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RoundLease } from "../../src/run/round-lease.js";
import { RoundRegistry } from "../../src/run/round-registry.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { FakeClock } from "../helpers/fake-clock.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

const LEASE_MS = 9_000;
let temporary: TemporaryStoreDirectory;
let clock: FakeClock;
let store: SqliteRunStore;

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  clock = new FakeClock();
  store = temporary.track(await SqliteRunStore.open(temporary.path, clock));
});
afterEach(async () => {
  await temporary.remove();
});

const start = (headSha = "aaa1111") =>
  store.startRound({
    repo: { owner: "octo-org", repo: "widgets" },
    installationId: 42,
    pullNumber: 7,
    headSha,
    trigger: { kind: "push", deliveryId: `d-${headSha}` },
  });

async function held(roundId: string, owner = "me"): Promise<RoundLease> {
  const claim = await store.claimRound(roundId, { owner, leaseMs: LEASE_MS });
  if (claim.kind !== "claimed") throw new Error(claim.kind);
  return new RoundLease({ store, lease: claim.lease, leaseMs: LEASE_MS, clock });
}

describe("RoundLease", () => {
  it("renews every third of the lease, so the round is never taken over while its holder lives", async () => {
    const { round } = await start();
    const lease = await held(round.id);
    await clock.advanceAndSettle(LEASE_MS * 4);
    expect(lease.reason()).toBeNull();
    expect((await store.claimRound(round.id, { owner: "other", leaseMs: LEASE_MS })).kind).toBe(
      "held",
    );
    lease.end();
  });

  it("learns at its next renewal that a newer head superseded the round, with the SHA, and aborts its signal", async () => {
    const { round } = await start();
    const lease = await held(round.id);
    await start("bbb2222");
    expect(lease.signal.aborted).toBe(false);
    await clock.advanceAndSettle(LEASE_MS / 3);
    expect(lease.reason()).toEqual({ kind: "superseded", by: "bbb2222" });
    expect(lease.signal.aborted).toBe(true);
    expect(lease.signal.reason).toBe("superseded by bbb2222");
  });

  it("says so at once when asked (the registry's hint) rather than at the next renewal", async () => {
    const { round } = await start();
    const lease = await held(round.id);
    const registry = new RoundRegistry();
    registry.add(lease, new Promise(() => undefined));
    await start("ccc3333");
    registry.hint(round.id);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lease.reason()).toEqual({ kind: "superseded", by: "ccc3333" });
  });

  it("is lost, and stops, once another worker took the round over", async () => {
    const { round } = await start();
    const claim = await store.claimRound(round.id, { owner: "frozen", leaseMs: LEASE_MS });
    if (claim.kind !== "claimed") throw new Error(claim.kind);
    const frozen = new RoundLease({
      store,
      lease: claim.lease,
      leaseMs: LEASE_MS,
      clock: new FakeClock(),
    });
    clock.advance(LEASE_MS);
    await held(round.id, "fresh");
    expect(await frozen.check()).toEqual({ kind: "lost" });
    expect(await frozen.finish({ state: "completed" })).toBe(false);
    expect((await store.findRound(round.id))?.state).toBe("running");
  });

  it("stops, as lost, when the store cannot be reached for a whole lease", async () => {
    const { round } = await start();
    const failing = {
      renewLease: async () => {
        throw new Error("connection refused");
      },
      releaseRound: store.releaseRound.bind(store),
      retryRound: store.retryRound.bind(store),
      holdRound: store.holdRound.bind(store),
      finishRound: store.finishRound.bind(store),
    };
    const claim = await store.claimRound(round.id, { owner: "me", leaseMs: LEASE_MS });
    if (claim.kind !== "claimed") throw new Error(claim.kind);
    const errors: unknown[] = [];
    const lease = new RoundLease({
      store: failing,
      lease: claim.lease,
      leaseMs: LEASE_MS,
      clock,
      onError: (error) => errors.push(error),
    });
    await clock.advanceAndSettle((LEASE_MS * 2) / 3);
    expect(lease.reason()).toBeNull();
    await clock.advanceAndSettle(LEASE_MS / 3);
    expect(lease.reason()).toEqual({ kind: "lost" });
    expect(errors).toHaveLength(3);
  });

  it("finishes the round fenced, after aborting what is left of it", async () => {
    const { round } = await start();
    const lease = await held(round.id);
    const aborted: unknown[] = [];
    lease.signal.addEventListener("abort", () => aborted.push(lease.signal.reason));
    expect(await lease.finish({ state: "completed" })).toBe(true);
    expect(aborted).toEqual(["the round ended"]);
    expect((await store.findRound(round.id))?.state).toBe("completed");
  });
});

describe("RoundRegistry", () => {
  it("close refuses new rounds without stopping the held ones; shutdown stops them, waiting for them", async () => {
    const { round } = await start();
    const lease = await held(round.id);
    const registry = new RoundRegistry();
    let finish: () => void = () => undefined;
    registry.add(lease, new Promise<void>((resolve) => (finish = resolve)));
    registry.close();
    expect(registry.accepting).toBe(false);
    expect(lease.reason()).toBeNull();
    lease.signal.addEventListener("abort", () => finish());
    await registry.shutdown(1000);
    expect(lease.reason()).toEqual({ kind: "shutdown" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(registry.has(round.id)).toBe(false);
  });
});
