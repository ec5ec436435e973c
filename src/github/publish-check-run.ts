import { agreementOf, type Cluster } from "../consensus/index.js";
import type { ChangedLineIndex } from "../diff/index.js";
import type { Clock } from "../time/index.js";
import { createOnce } from "./create-once.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { type RateLimitWait, retrySecondaryRateLimit } from "./retry-secondary-rate-limit.js";

/** The round's clock (its times on the check) and how a rate-limited write waits. */
export interface CheckRunWait extends RateLimitWait {
  clock?: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
}

function nowOf(wait: CheckRunWait): number {
  return wait.clock?.now() ?? Date.now();
}

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
  wait: CheckRunWait = {},
): Promise<number> {
  // Found again by its external_id (the round's id) when GitHub did not confirm it.
  return createOnce(
    async () => {
      const { data } = await retrySecondaryRateLimit(
        () =>
          octokit.rest.checks.create({
            ...repo,
            name: CHECK_RUN_NAME,
            head_sha: headSha,
            status: "in_progress",
            started_at: new Date(nowOf(wait)).toISOString(),
            external_id: externalId,
            output,
          }),
        wait,
      );
      return data.id;
    },
    () => findOwnCheckRun(octokit, repo, headSha, externalId),
  );
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
  wait: CheckRunWait = {},
): Promise<void> {
  const batches: CheckAnnotation[][] = [];
  for (let start = 0; start < annotations.length; start += ANNOTATIONS_PER_REQUEST) {
    batches.push(annotations.slice(start, start + ANNOTATIONS_PER_REQUEST));
  }
  const last = batches.pop() ?? [];
  for (const batch of batches) {
    await retrySecondaryRateLimit(
      () =>
        octokit.rest.checks.update({
          ...repo,
          check_run_id: checkRunId,
          output: { ...output, annotations: batch },
        }),
      wait,
    );
  }
  await retrySecondaryRateLimit(
    () =>
      octokit.rest.checks.update({
        ...repo,
        check_run_id: checkRunId,
        status: "completed",
        conclusion,
        completed_at: new Date(nowOf(wait)).toISOString(),
        output: last.length === 0 ? output : { ...output, annotations: last },
      }),
    wait,
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

/**
 * The check run a round already created on its head SHA, or null: our check's name and the
 * round's id as its `external_id`. A round killed after GitHub created its check, but before
 * the check's id was stored, adopts it instead of starting a second one.
 */
export async function findOwnCheckRun(
  octokit: GitHubClient,
  repo: RepoRef,
  headSha: string,
  externalId: string,
): Promise<number | null> {
  const runs = await octokit.paginate(octokit.rest.checks.listForRef, {
    ...repo,
    ref: headSha,
    check_name: CHECK_RUN_NAME,
    filter: "all",
    per_page: 100,
  });
  return runs.find((run) => run.external_id === externalId)?.id ?? null;
}
