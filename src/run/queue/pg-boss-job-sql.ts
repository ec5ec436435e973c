/**
 * The few statements Gadfly runs on pg-boss's own job table (pg-boss 10's
 * layout, pinned in package.json; the queue tests run them against it), for
 * what pg-boss 10 has no API for: heartbeats, fencing an attempt, and the
 * per-installation backlog behind the fairness rule. An attempt is
 * identified by (id, retry_count): pg-boss bumps retry_count each time it
 * hands out a job that was started before.
 */
export function pgBossJobSql(schema: string) {
  const job = `${quoteIdentifier(schema)}.job`;
  return {
    /** $1 queue, $2 installation id (text): its jobs queued, retrying or running. */
    backlog: `SELECT count(*)::int AS backlog FROM ${job}
      WHERE name = $1 AND state < 'completed' AND data->>'installationId' = $2`,
    /**
     * $1 queue, $2 job id, $3 visibility (ms), $4 retry count, $5 round id: pushes the
     * attempt's expiry to now + visibility; says whether it still holds the job and
     * whether the round was cancelled.
     */
    heartbeat: `WITH beat AS (
        UPDATE ${job} SET expire_in = (now() - started_on) + $3 * interval '1 millisecond'
        WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $4
        RETURNING id
      )
      SELECT (SELECT count(*) FROM beat)::int AS held,
        (SELECT reason FROM queue_cancellations WHERE round_id = $5) AS cancelled`,
    /** $1 queue, $2 job id, $3 retry count: locks the attempt's row until commit, if it still holds it. */
    lockAttempt: `SELECT id FROM ${job}
      WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $3
      FOR UPDATE`,
    /** $1 queue, $2 job id: a job released by a stopping worker may be taken at once. */
    retryNow: `UPDATE ${job} SET start_after = now() WHERE name = $1 AND id = $2 AND state = 'retry'`,
    /**
     * $1 queue, $2 job id, $3 delay (ms): a job not yet taken starts no later than now + delay
     * (a comment on a round still waiting for pushes to settle, or a cancelled one that only ends).
     */
    bringForward: `UPDATE ${job} SET start_after = now() + $3 * interval '1 millisecond'
      WHERE name = $1 AND id = $2 AND state = 'created'
        AND start_after > now() + $3 * interval '1 millisecond'`,
    /** $1 queue: jobs held by workers now. */
    active: `SELECT count(*)::int AS active FROM ${job} WHERE name = $1 AND state = 'active'`,
  };
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
