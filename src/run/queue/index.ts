// Front door of src/run/queue: the work queue and the PostgreSQL model-call limiter (the port and the in-memory one are in src/llm/limits).
// Other folders import only from here; this lists what they use today.
export { createRoundJobHandler } from "./create-round-job-handler.js";
export { InMemoryWorkQueue } from "./in-memory-work-queue.js";
export type { JobStopError } from "./job-stop-error.js";
export { PgBossWorkQueue } from "./pg-boss-work-queue.js";
export { PostgresModelCallLimiter } from "./postgres-model-call-limiter.js";
export type { EnqueueOptions, QueueDepth, WorkQueue } from "./work-queue.js";
