import { githubError } from "../github-error.js";
import { paginate } from "../paginate.js";
import { type RepositoryRouteContext, repositoryRoute } from "../repository-route.js";
import type { Route, RouteResponse } from "../route.js";
import type { CheckRunAnnotation, CheckRunRecord, CheckRunUpdate } from "../types.js";
import { checkRunJson } from "../views/check-run-json.js";
import { pullRequestReferenceJson } from "../views/pull-request-reference-json.js";

interface CheckRunBody {
  name?: string;
  head_sha?: string;
  details_url?: string;
  external_id?: string;
  status?: string;
  started_at?: string;
  conclusion?: string;
  completed_at?: string;
  output?: { title?: string; summary?: string; text?: string; annotations?: CheckRunAnnotation[] };
}

// The OpenAPI description also caps annotations (maxItems 50), so an
// oversized request is recorded as a validation failure before reaching here.
const maximumAnnotationsPerRequest = 50;

/** Check runs: created and updated by the app, every request kept in `updates`. */
export const checkRunRoutes: Route[] = [
  repositoryRoute("POST", "/repos/{owner}/{repo}/check-runs", (context) => {
    const { state, repository } = context;
    const body = (context.body ?? {}) as CheckRunBody;
    const headSha = body.head_sha ?? "";
    if (!repository.commits.has(headSha)) {
      return githubError(422, `No commit found for SHA: ${headSha}`);
    }
    const checkRun: CheckRunRecord = {
      id: state.nextId(),
      owner: repository.owner.login,
      repo: repository.name,
      name: body.name ?? "",
      headSha,
      status: "queued",
      conclusion: null,
      startedAt: state.timestamp(),
      completedAt: null,
      output: { title: null, summary: null, text: null },
      annotations: [],
      externalId: null,
      detailsUrl: null,
      updates: [],
    };
    const failure = applyUpdate(context, checkRun, body, "POST");
    if (failure !== undefined) return failure;
    state.checkRuns.set(checkRun.id, checkRun);
    return { status: 201, json: toJson(context, checkRun) };
  }),
  repositoryRoute("PATCH", "/repos/{owner}/{repo}/check-runs/{check_run_id}", (context) =>
    withCheckRun(context, (checkRun) => {
      const draft = structuredClone(checkRun);
      const failure = applyUpdate(context, draft, (context.body ?? {}) as CheckRunBody, "PATCH");
      if (failure !== undefined) return failure;
      Object.assign(checkRun, draft);
      return { status: 200, json: toJson(context, checkRun) };
    }),
  ),
  repositoryRoute("GET", "/repos/{owner}/{repo}/check-runs/{check_run_id}", (context) =>
    withCheckRun(context, (checkRun) => ({ status: 200, json: toJson(context, checkRun) })),
  ),
  repositoryRoute("GET", "/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations", (context) =>
    withCheckRun(context, (checkRun) => {
      const page = paginate(checkRun.annotations, context);
      return { status: 200, json: page.items, headers: page.headers };
    }),
  ),
  repositoryRoute("GET", "/repos/{owner}/{repo}/commits/{ref}/check-runs", (context) => {
    const commit = context.state.resolveRef(context.repository, context.params.ref ?? "");
    if (commit === undefined)
      return githubError(422, `No commit found for SHA: ${context.params.ref}`);
    const name = context.query.get("check_name");
    const status = context.query.get("status");
    let runs = [...context.state.checkRuns.values()].filter(
      (checkRun) =>
        isInRepository(context, checkRun) &&
        checkRun.headSha === commit.sha &&
        (name === null || checkRun.name === name) &&
        (status === null || checkRun.status === status),
    );
    if ((context.query.get("filter") ?? "latest") === "latest") {
      const latest = new Map<string, CheckRunRecord>();
      for (const checkRun of runs) latest.set(checkRun.name, checkRun);
      runs = [...latest.values()];
    }
    runs.sort((left, right) => right.id - left.id);
    const page = paginate(runs, context);
    return {
      status: 200,
      json: {
        total_count: runs.length,
        check_runs: page.items.map((checkRun) => toJson(context, checkRun)),
      },
      headers: page.headers,
    };
  }),
];

function applyUpdate(
  context: RepositoryRouteContext,
  checkRun: CheckRunRecord,
  body: CheckRunBody,
  method: "POST" | "PATCH",
): RouteResponse | undefined {
  const annotations = body.output?.annotations ?? [];
  if (annotations.length > maximumAnnotationsPerRequest) {
    return githubError(422, "Unprocessable Entity", {
      errors: [`Only ${maximumAnnotationsPerRequest} annotations are allowed per request`],
    });
  }
  const now = context.state.timestamp();
  if (body.name !== undefined) checkRun.name = body.name;
  if (body.external_id !== undefined) checkRun.externalId = body.external_id;
  if (body.details_url !== undefined) checkRun.detailsUrl = body.details_url;
  if (body.started_at !== undefined) checkRun.startedAt = body.started_at;
  if (body.status !== undefined) checkRun.status = body.status;
  if (body.conclusion !== undefined) {
    checkRun.conclusion = body.conclusion;
    checkRun.status = "completed";
  }
  if (checkRun.status === "completed") {
    if (checkRun.conclusion === null) {
      return githubError(422, "Unprocessable Entity", {
        errors: ["Conclusion must be set when the status is completed"],
      });
    }
    checkRun.completedAt = body.completed_at ?? checkRun.completedAt ?? now;
  }
  if (body.output !== undefined) {
    // GitHub replaces the output texts and appends the annotations.
    checkRun.output = {
      title: body.output.title ?? null,
      summary: body.output.summary ?? null,
      text: body.output.text ?? null,
    };
    checkRun.annotations.push(...annotations);
  }
  const update: CheckRunUpdate = {
    at: now,
    method,
    status: checkRun.status,
    conclusion: checkRun.conclusion,
    output:
      body.output === undefined
        ? null
        : {
            ...(body.output.title === undefined ? {} : { title: body.output.title }),
            ...(body.output.summary === undefined ? {} : { summary: body.output.summary }),
            ...(body.output.text === undefined ? {} : { text: body.output.text }),
          },
    annotations: structuredClone(annotations),
  };
  checkRun.updates.push(update);
  return undefined;
}

function isInRepository(context: RepositoryRouteContext, checkRun: CheckRunRecord): boolean {
  return (
    checkRun.owner === context.repository.owner.login && checkRun.repo === context.repository.name
  );
}

function withCheckRun(
  context: RepositoryRouteContext,
  handle: (checkRun: CheckRunRecord) => RouteResponse,
): RouteResponse {
  const checkRun = context.state.checkRuns.get(Number(context.params.check_run_id));
  return checkRun === undefined || !isInRepository(context, checkRun)
    ? githubError(404, "Not Found")
    : handle(checkRun);
}

function toJson(context: RepositoryRouteContext, checkRun: CheckRunRecord) {
  const { state, repository } = context;
  const pullRequests = [...repository.pullRequests.values()]
    .filter(
      (pullRequest) => pullRequest.state === "open" && pullRequest.headSha === checkRun.headSha,
    )
    .map((pullRequest) =>
      pullRequestReferenceJson(state.pullRequestSnapshot(repository, pullRequest)),
    );
  return checkRunJson(checkRun, state.app, state.urls, pullRequests);
}
