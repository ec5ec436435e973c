import type { AppIdentity } from "../fake-state.js";
import type { CheckRunRecord, SiteUrls } from "../types.js";

/** A check run as the Checks API and `check_run` webhooks show it. */
export function checkRunJson(
  checkRun: CheckRunRecord,
  app: AppIdentity,
  urls: SiteUrls,
  pullRequests: readonly Record<string, unknown>[],
): Record<string, unknown> {
  const apiUrl = `${urls.api}/repos/${checkRun.owner}/${checkRun.repo}`;
  return {
    id: checkRun.id,
    node_id: Buffer.from(`008:CheckRun${checkRun.id}`).toString("base64"),
    head_sha: checkRun.headSha,
    external_id: checkRun.externalId ?? "",
    url: `${apiUrl}/check-runs/${checkRun.id}`,
    html_url: `${urls.html}/${checkRun.owner}/${checkRun.repo}/runs/${checkRun.id}`,
    details_url: checkRun.detailsUrl,
    status: checkRun.status,
    conclusion: checkRun.conclusion,
    started_at: checkRun.startedAt,
    completed_at: checkRun.completedAt,
    output: {
      title: checkRun.output.title,
      summary: checkRun.output.summary,
      text: checkRun.output.text,
      annotations_count: checkRun.annotations.length,
      annotations_url: `${apiUrl}/check-runs/${checkRun.id}/annotations`,
    },
    name: checkRun.name,
    check_suite: { id: checkRun.id + 500_000 },
    app: { id: app.id, slug: app.slug, name: app.slug, owner: null },
    pull_requests: pullRequests,
  };
}
