import { afterEach, beforeEach } from "vitest";
import type { RunStore } from "../../../../src/run/store/run-store.js";
import { FakeClock } from "../../../helpers/fake-clock.js";
import type { RunStoreBackend, RunStoreFixture } from "./run-store-backend.js";

export interface RunStoreTestContext {
  fixture: RunStoreFixture;
  clock: FakeClock;
  /** Opened on the fixture before each test. */
  store: RunStore;
}

/** Registers hooks giving each test of the enclosing describe a fresh, empty store. */
export function useRunStoreFixture(backend: RunStoreBackend): RunStoreTestContext {
  const context: Partial<RunStoreTestContext> = {};
  beforeEach(async () => {
    context.clock = new FakeClock();
    context.fixture = await backend.fixture();
    context.store = await context.fixture.open(context.clock);
  });
  afterEach(async () => {
    await context.fixture?.remove();
  });
  return {
    get fixture() {
      return defined(context.fixture);
    },
    get clock() {
      return defined(context.clock);
    },
    get store() {
      return defined(context.store);
    },
  };
}

function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("used outside a test of the describe block");
  return value;
}
