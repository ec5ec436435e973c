import { createHmac, randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import type {
  CheckRunRecord,
  IssueCommentRecord,
  PullRequestSnapshot,
  UserRecord,
} from "./types.js";
import type { AuthorAssociation } from "./views/comment-json.js";
import { labelJson } from "./views/label-json.js";
import { pullRequestJson } from "./views/pull-request-json.js";
import { pullRequestReferenceJson } from "./views/pull-request-reference-json.js";
import { repositoryJson } from "./views/repository-json.js";
import { userJson } from "./views/user-json.js";

/** A webhook as Probot receives it (`probot.receive(event)` takes it as is). */
export interface WebhookEvent {
  id: string;
  name: string;
  payload: Record<string, unknown>;
}

export interface SignedDelivery {
  body: string;
  headers: Record<string, string>;
}

interface ExampleGroup {
  name: string;
  examples: Record<string, unknown>[];
}

let examples: ExampleGroup[] | undefined;

// One 4 MB CommonJS array: loaded once, on first use.
function loadExamples(): ExampleGroup[] {
  examples ??= createRequire(import.meta.url)("@octokit/webhooks-examples") as ExampleGroup[];
  return examples;
}

/**
 * A real example payload of GitHub's for this event, preferring one for the
 * action that carries `installation.id` (as deliveries to an app do).
 */
function examplePayload(name: string, action: string): Record<string, unknown> {
  const group = loadExamples().find((candidate) => candidate.name === name);
  if (group === undefined) throw new Error(`no webhook examples for ${name}`);
  const hasInstallation = (example: Record<string, unknown>) =>
    typeof (example.installation as { id?: unknown } | undefined)?.id === "number";
  const example =
    group.examples.find((candidate) => candidate.action === action && hasInstallation(candidate)) ??
    group.examples.find((candidate) => candidate.action === action) ??
    group.examples.find(hasInstallation) ??
    group.examples[0];
  if (example === undefined) throw new Error(`no webhook example for ${name}.${action}`);
  return structuredClone(example);
}

function adapt(
  name: string,
  action: string,
  pullRequest: PullRequestSnapshot,
  sender: UserRecord,
): Record<string, unknown> {
  const { repository } = pullRequest;
  const payload = examplePayload(name, action);
  payload.action = action;
  payload.repository = repositoryJson(repository);
  payload.installation = {
    id: repository.installationId,
    node_id: Buffer.from(`023:Installation${repository.installationId}`).toString("base64"),
  };
  payload.sender = userJson(sender, repository.urls);
  if (repository.owner.type === "Organization") {
    payload.organization = { login: repository.owner.login, id: repository.owner.id };
  } else {
    delete payload.organization;
  }
  delete payload.enterprise;
  return payload;
}

/**
 * `pull_request.<action>` for a PR of the fake; `before` is for `synchronize`, `changes` for
 * `edited` (`{ base: { ref: { from }, sha: { from } } }` after `fake.changeBase`), `label` for
 * `labeled` / `unlabeled` (after `fake.setLabels`).
 */
export function pullRequestEvent(
  action: string,
  pullRequest: PullRequestSnapshot,
  options: {
    before?: string;
    sender?: UserRecord;
    changes?: Record<string, unknown>;
    label?: string;
  } = {},
): WebhookEvent {
  const payload = adapt("pull_request", action, pullRequest, options.sender ?? pullRequest.user);
  payload.number = pullRequest.number;
  payload.pull_request = pullRequestJson(pullRequest);
  if (action === "labeled" || action === "unlabeled") {
    if (options.label === undefined) throw new Error(`pull_request.${action} needs its label`);
    payload.label = labelJson(pullRequest.repository, options.label);
  } else {
    delete payload.label;
  }
  if (action === "edited") payload.changes = options.changes ?? {};
  else delete payload.changes;
  if (action === "synchronize") {
    payload.before = options.before ?? pullRequest.baseSha;
    payload.after = pullRequest.headSha;
  } else {
    delete payload.before;
    delete payload.after;
  }
  return { id: randomUUID(), name: "pull_request", payload };
}

/**
 * `issue_comment.<action>` on a PR. Pass a comment seeded with
 * `fake.addComment` so the app can react to or read it back.
 */
export function issueCommentEvent(input: {
  pullRequest: PullRequestSnapshot;
  comment: IssueCommentRecord;
  association: AuthorAssociation;
  action?: "created" | "edited" | "deleted";
}): WebhookEvent {
  const { pullRequest, comment, association } = input;
  const action = input.action ?? "created";
  const { urls, fullName } = pullRequest.repository;
  const payload = adapt("issue_comment", action, pullRequest, comment.user);
  const pull = pullRequestJson(pullRequest);
  payload.issue = {
    url: `${urls.api}/repos/${fullName}/issues/${pullRequest.number}`,
    repository_url: `${urls.api}/repos/${fullName}`,
    comments_url: `${urls.api}/repos/${fullName}/issues/${pullRequest.number}/comments`,
    html_url: pull.html_url,
    id: pullRequest.id,
    number: pullRequest.number,
    title: pullRequest.title,
    user: userJson(pullRequest.user, urls),
    labels: pullRequest.labels.map((name) => labelJson(pullRequest.repository, name)),
    state: pullRequest.state,
    locked: false,
    assignee: null,
    assignees: [],
    comments: 0,
    created_at: pullRequest.createdAt,
    updated_at: pullRequest.updatedAt,
    closed_at: null,
    author_association: "CONTRIBUTOR",
    draft: pullRequest.draft,
    body: pullRequest.body,
    pull_request: {
      url: pull.url,
      html_url: pull.html_url,
      diff_url: pull.diff_url,
      patch_url: pull.patch_url,
      merged_at: null,
    },
  };
  payload.comment = {
    url: `${urls.api}/repos/${fullName}/issues/comments/${comment.id}`,
    html_url: comment.htmlUrl,
    issue_url: `${urls.api}/repos/${fullName}/issues/${pullRequest.number}`,
    id: comment.id,
    node_id: Buffer.from(`012:IssueComment${comment.id}`).toString("base64"),
    user: userJson(comment.user, urls),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    author_association: association,
    body: comment.body,
    performed_via_github_app: null,
  };
  if (action !== "edited") delete payload.changes;
  return { id: randomUUID(), name: "issue_comment", payload };
}

/** `check_run.rerequested` for one of the app's check runs on the PR's head. */
export function checkRunRerequestedEvent(
  pullRequest: PullRequestSnapshot,
  checkRun: Pick<CheckRunRecord, "id" | "name" | "headSha"> & Partial<CheckRunRecord>,
  app: { id: number; slug: string },
  sender: UserRecord = pullRequest.user,
): WebhookEvent {
  const payload = adapt("check_run", "rerequested", pullRequest, sender);
  const reference = pullRequestReferenceJson(pullRequest);
  const appJson = { id: app.id, slug: app.slug, name: app.slug, owner: null };
  payload.check_run = {
    id: checkRun.id,
    name: checkRun.name,
    node_id: Buffer.from(`008:CheckRun${checkRun.id}`).toString("base64"),
    head_sha: checkRun.headSha,
    external_id: checkRun.externalId ?? "",
    url: `${pullRequest.repository.urls.api}/repos/${pullRequest.repository.fullName}/check-runs/${checkRun.id}`,
    status: checkRun.status ?? "completed",
    conclusion: checkRun.conclusion ?? "neutral",
    started_at: checkRun.startedAt ?? pullRequest.updatedAt,
    completed_at: checkRun.completedAt ?? pullRequest.updatedAt,
    output: {
      ...(checkRun.output ?? { title: null, summary: null, text: null }),
      annotations_count: 0,
    },
    app: appJson,
    check_suite: {
      id: checkRun.id + 500_000,
      head_branch: pullRequest.headRef,
      head_sha: checkRun.headSha,
      status: "completed",
      conclusion: "neutral",
      app: appJson,
      pull_requests: [reference],
    },
    pull_requests: [reference],
  };
  return { id: randomUUID(), name: "check_run", payload };
}

/**
 * `pull_request_review_comment.created`: `comment` is the comment as the REST API returned it
 * (e.g. a person's reply, or `fake.reviewCommentJson(id)`); `sender` is its author.
 */
export function pullRequestReviewCommentEvent(input: {
  pullRequest: PullRequestSnapshot;
  comment: Record<string, unknown>;
  sender: UserRecord;
}): WebhookEvent {
  const payload = adapt("pull_request_review_comment", "created", input.pullRequest, input.sender);
  payload.pull_request = pullRequestJson(input.pullRequest);
  payload.comment = structuredClone(input.comment);
  delete payload.changes;
  return { id: randomUUID(), name: "pull_request_review_comment", payload };
}

/**
 * `pull_request_review_thread.resolved` (or `unresolved`) by `sender`: `comments` are the
 * thread's comments as the REST API shows them, top-level first; `nodeId` the thread's.
 */
export function pullRequestReviewThreadEvent(input: {
  pullRequest: PullRequestSnapshot;
  nodeId: string;
  comments: Record<string, unknown>[];
  sender: UserRecord;
  action?: "resolved" | "unresolved";
}): WebhookEvent {
  const action = input.action ?? "resolved";
  const payload = adapt("pull_request_review_thread", action, input.pullRequest, input.sender);
  payload.pull_request = pullRequestJson(input.pullRequest);
  payload.thread = { node_id: input.nodeId, comments: structuredClone(input.comments) };
  return { id: randomUUID(), name: "pull_request_review_thread", payload };
}

/** The raw body and headers GitHub sends: `X-Hub-Signature-256` is the body's HMAC-SHA256. */
export function signWebhook(event: WebhookEvent, secret: string): SignedDelivery {
  const body = JSON.stringify(event.payload);
  const signature = createHmac("sha256", secret).update(body).digest("hex");
  return {
    body,
    headers: {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/fake",
      "x-github-event": event.name,
      "x-github-delivery": event.id,
      "x-github-hook-installation-target-type": "integration",
      "x-hub-signature-256": `sha256=${signature}`,
    },
  };
}

/** POSTs a signed delivery to the app (loopback only). */
export async function deliver(
  url: string,
  event: WebhookEvent,
  secret: string,
): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(target.hostname)) {
    throw new Error(`webhooks are only delivered to loopback addresses, not ${target.hostname}`);
  }
  const { body, headers } = signWebhook(event, secret);
  const response = await fetch(target, { method: "POST", headers, body });
  return { status: response.status, body: await response.text() };
}
