// Front door of src/run/queue: the work queue, the PostgreSQL model-call limiter (the port and the in-memory one are in src/llm/limits) and the token buckets of GitHub's write budget.
// Other folders import only from here; this lists what they use today.
export { InMemoryTokenBuckets } from "./in-memory-token-buckets.js";
export { InMemoryWorkQueue } from "./in-memory-work-queue.js";
export { PgBossWorkQueue } from "./pg-boss-work-queue.js";
export { PostgresModelCallLimiter } from "./postgres-model-call-limiter.js";
export { PostgresTokenBuckets } from "./postgres-token-buckets.js";
export type {
  BucketRequest,
  BucketTake,
  TokenBucketShape,
  TokenBuckets,
} from "./token-buckets.js";
export type {
  EnqueueOptions,
  JobHandler,
  QueueDepth,
  RoundJob,
  TakenJob,
  WorkQueue,
} from "./work-queue.js";
