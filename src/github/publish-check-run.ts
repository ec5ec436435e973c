import { agreementOf, type Cluster } from "../consensus/index.js";
import type { ChangedLineIndex } from "../diff/index.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { retrySecondaryRateLimit } from "./retry-secondary-rate-limit.js";

/** GitHub takes at most 50 annotations per create/update request. */
export const ANNOTATIONS_PER_REQUEST = 50;
export const CHECK_RUN_NAME = "Gadfly";

export interface CheckRunOutputText {
  title: string;
  summary: string;
  text?: string;
}

export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "notice" | "warning";
  title: string;
  message: string;
}

/** Starts the advisory check for a head SHA. */
export async function startCheckRun(
  octokit: GitHubClient,
  repo: RepoRef,
  headSha: string,
  output: CheckRunOutputText,
  externalId: string,
): Promise<number> {
  const { data } = await retrySecondaryRateLimit(() =>
    octokit.rest.checks.create({
      ...repo,
      name: CHECK_RUN_NAME,
      head_sha: headSha,
      status: "in_progress",
      started_at: new Date().toISOString(),
      external_id: externalId,
      output,
    }),
  );
  return data.id;
}

/**
 * Completes the check: never `failure` (advisory), `neutral` when the round
 * ran (whatever it found), `cancelled` when superseded. Annotations go out in
 * batches of 50, the conclusion with the last batch.
 */
export async function completeCheckRun(
  octokit: GitHubClient,
  repo: RepoRef,
  checkRunId: number,
  conclusion: "neutral" | "cancelled",
  output: CheckRunOutputText,
  annotations: readonly CheckAnnotation[] = [],
): Promise<void> {
  const batches: CheckAnnotation[][] = [];
  for (let start = 0; start < annotations.length; start += ANNOTATIONS_PER_REQUEST) {
    batches.push(annotations.slice(start, start + ANNOTATIONS_PER_REQUEST));
  }
  const last = batches.pop() ?? [];
  for (const batch of batches) {
    await retrySecondaryRateLimit(() =>
      octokit.rest.checks.update({
        ...repo,
        check_run_id: checkRunId,
        output: { ...output, annotations: batch },
      }),
    );
  }
  await retrySecondaryRateLimit(() =>
    octokit.rest.checks.update({
      ...repo,
      check_run_id: checkRunId,
      status: "completed",
      conclusion,
      completed_at: new Date().toISOString(),
      output: last.length === 0 ? output : { ...output, annotations: last },
    }),
  );
}

/** Annotations for the findings that lie on changed lines of the new side. */
export function checkAnnotations(
  clusters: readonly Cluster[],
  index: ChangedLineIndex,
): CheckAnnotation[] {
  return clusters.flatMap((cluster): CheckAnnotation[] => {
    const finding = cluster.representative;
    const placement = index.placeComment(finding.file, {
      start: finding.line,
      end: finding.endLine,
    });
    if (placement === null) return [];
    const agreed = agreementOf(cluster);
    const confirmed = cluster.confirmedBy?.length ?? 0;
    const agreement = `${agreed === 1 ? "1 model" : `${agreed} models`}${confirmed > 0 ? ` (${confirmed} on cross-examination)` : ""}${cluster.disputed === true ? ", disputed" : ""}`;
    return [
      {
        path: finding.file,
        start_line: placement.startLine ?? placement.line,
        end_line: placement.line,
        annotation_level:
          cluster.severity === "high" || cluster.severity === "medium" ? "warning" : "notice",
        title: truncate(`[${cluster.severity}] ${finding.title}`, 255),
        message: truncate(`${finding.lens} · flagged by ${agreement}\n\n${finding.body}`, 60_000),
      },
    ];
  });
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
