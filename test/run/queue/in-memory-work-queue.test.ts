import { describe } from "vitest";
import { InMemoryWorkQueue } from "../../../src/run/queue/in-memory-work-queue.js";
import { workQueueContract } from "./helpers/work-queue-contract.js";

describe("InMemoryWorkQueue", () => {
  workQueueContract({
    name: "in memory",
    open: async ({ maxAttempts }) => new InMemoryWorkQueue({ maxAttempts }),
  });
});
