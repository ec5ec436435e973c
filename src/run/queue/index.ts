// Front door of src/run/queue: the work queue and the model-call limiters (in memory, pg-boss, Postgres).
// Other folders import only from here; this lists what they use today.
export { createRoundJobHandler } from "./create-round-job-handler.js";
export { createInMemoryModelCallLimiter } from "./in-memory-model-call-limiter.js";
export { InMemoryWorkQueue } from "./in-memory-work-queue.js";
export type { JobStopError } from "./job-stop-error.js";
export { limitModelCalls } from "./limit-model-calls.js";
export type { ModelCallLimiter, ProviderCap } from "./model-call-limiter.js";
export { PgBossWorkQueue } from "./pg-boss-work-queue.js";
export { PostgresModelCallLimiter } from "./postgres-model-call-limiter.js";
export type { QueueDepth, WorkQueue } from "./work-queue.js";
