import type {
  RoundArtifacts,
  RoundState,
  RoundTrigger,
  StoredRound,
  TriggerKind,
} from "./run-store.js";

/** A `rounds` row as the database returns it. */
export interface RoundRow {
  id: string;
  owner: string;
  repo: string;
  installation_id: number;
  pull_number: number;
  head_sha: string;
  round_number: number;
  trigger_kind: string;
  trigger_delivery_id: string;
  trigger_actor: string | null;
  state: string;
  attempts: number;
  superseded_by: string | null;
  failure: string | null;
  status_comment_id: number | null;
  consensus_comment_id: number | null;
  review_id: number | null;
  check_run_id: number | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** Maps a row to the store's shape; the CHECK constraints guarantee the enum columns. */
export function roundFromRow(row: RoundRow): StoredRound {
  const trigger: RoundTrigger = {
    kind: row.trigger_kind as TriggerKind,
    deliveryId: row.trigger_delivery_id,
  };
  if (row.trigger_actor !== null) trigger.actor = row.trigger_actor;
  const artifacts: RoundArtifacts = {};
  if (row.status_comment_id !== null) artifacts.statusCommentId = row.status_comment_id;
  if (row.consensus_comment_id !== null) artifacts.consensusCommentId = row.consensus_comment_id;
  if (row.review_id !== null) artifacts.reviewId = row.review_id;
  if (row.check_run_id !== null) artifacts.checkRunId = row.check_run_id;
  return {
    id: row.id,
    repo: { owner: row.owner, repo: row.repo },
    installationId: row.installation_id,
    pullNumber: row.pull_number,
    headSha: row.head_sha,
    number: row.round_number,
    trigger,
    state: row.state as RoundState,
    attempts: row.attempts,
    supersededBy: row.superseded_by,
    failure: row.failure,
    artifacts,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
  };
}
