import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DiffFile } from "../../src/diff/index.js";
import { parsePatch } from "../../src/diff/index.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { type ReviewBaseline, readReviewScope } from "../../src/github/read-review-scope.js";
import type { ReviewScope } from "../../src/run/index.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { quietOctokit } from "../fakes/fake-github/quiet-octokit.js";

let github: FakeGitHub;
let octokit: GitHubClient;

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  octokit = quietOctokit(github.apiUrl) as unknown as GitHubClient;
});
afterAll(async () => {
  await github.close();
});

const lines = (count: number, tag: string) =>
  `${Array.from({ length: count }, (_, index) => `${tag} ${index + 1}`).join("\n")}\n`;

/** A PR with two files, its whole-PR files as the snapshot parses them. */
async function pullRequest(name: string) {
  const repository = github.addRepo({ owner: "octo", name });
  const pr = github.addPullRequest({
    repo: repository.name,
    owner: "octo",
    files: [
      { path: "src/a.ts", base: lines(30, "a"), head: lines(31, "a") },
      { path: "src/b.ts", head: lines(5, "b") },
    ],
  });
  return { repo: { owner: "octo", repo: name }, pr };
}

async function pullFiles(repo: { owner: string; repo: string }, number: number) {
  const listed = await octokit.paginate(octokit.rest.pulls.listFiles, {
    ...repo,
    pull_number: number,
  });
  return listed.map((entry) =>
    parsePatch(entry.filename, entry.patch ?? "", { status: entry.status }),
  );
}

type Pr = { headSha: string; baseSha: string; baseRef: string };
/** The round at `pr` as the store gives it back: reviewed against its base's merge base. */
const reviewedAt = (pr: Pr, extra: Partial<ReviewBaseline> = {}): ReviewBaseline => ({
  headSha: pr.headSha,
  base: { ref: pr.baseRef, mergeBaseSha: pr.baseSha },
  unfinishedLenses: [],
  ...extra,
});
const baseOf = (pr: Pr) => ({ ref: pr.baseRef, sha: pr.baseSha });
const stepPaths = (scope: ReviewScope) =>
  scope.kind === "incremental" ? scope.files.map((file) => file.path) : scope;

describe("readReviewScope", () => {
  it("reviews only the files changed since the last reviewed head, with their step patches", async () => {
    const { repo, pr } = await pullRequest("step");
    const pushed = github.pushCommit(pr, [{ path: "src/b.ts", content: lines(6, "b") }]);
    const files = await pullFiles(repo, pr.number);

    const { scope, base } = await readReviewScope(octokit, repo, {
      previous: reviewedAt(pr),
      headSha: pushed.headSha,
      base: baseOf(pushed),
      forceFull: false,
      pullFiles: files,
    });

    // What this round reviews against, for the next one.
    expect(base).toEqual({ ref: "main", mergeBaseSha: pr.baseSha });
    expect(scope.kind).toBe("incremental");
    if (scope.kind !== "incremental") return;
    expect(scope.since).toBe(pr.headSha);
    expect(scope.files.map((file) => file.path)).toEqual(["src/b.ts"]);
    expect(scope.wholePatch).toBeUndefined();
    // The step's patch (one line added at 6), not the whole PR's (a new file of six lines).
    const added = scope.files[0]?.hunks.flatMap((hunk) =>
      hunk.lines.filter((line) => line.type === "add").map((line) => line.newLine),
    );
    expect(added).toEqual([6]);
    // The merge base now, and the step: the base did not move, so nothing more.
    expect(github.requests({ method: "GET", path: "/repos/octo/step/compare/*" })).toHaveLength(2);
  });

  it("reviews a merge of the base whose resolution reverts the base's fix, by its whole-PR patch", async () => {
    // The vulnerable file is on main before the PR: the PR's head has it as the base had it.
    const name = "revert-fix";
    github.addRepo({
      owner: "octo",
      name,
      files: { "src/db.ts": 'query("SELECT " + id)\n', "docs/notes.md": "notes\n" },
    });
    const repo = { owner: "octo", repo: name };
    const pr = github.addPullRequest({
      repo: name,
      owner: "octo",
      files: [
        { path: "src/a.ts", base: lines(30, "a"), head: lines(31, "a") },
        { path: "src/b.ts", head: lines(5, "b") },
      ],
    });
    const start = github.pushCommit(pr, [{ path: "src/b.ts", content: lines(6, "b") }]);
    // Round 1 reviewed `start`; main then fixes the injection, and the author merges main in,
    // keeping the old src/db.ts: the PR now reverts the fix. No commit of the author's touches
    // src/db.ts, so a step of commits (last head to head) would not list it.
    github.setFile("main", "src/db.ts", 'query("SELECT ?", [id])\n', {
      owner: "octo",
      repo: "revert-fix",
    });
    github.setFile("main", "docs/notes.md", "more notes\n", { owner: "octo", repo: "revert-fix" });
    const merged = github.pushCommit(
      start,
      [{ path: "src/db.ts", content: 'query("SELECT " + id)\n' }],
      { mergeBase: true },
    );
    const files = await pullFiles(repo, pr.number);
    expect(files.map((file) => file.path).sort()).toEqual(["src/a.ts", "src/b.ts", "src/db.ts"]);

    const { scope, base } = await readReviewScope(octokit, repo, {
      previous: reviewedAt({ ...start, baseSha: pr.baseSha }),
      headSha: merged.headSha,
      base: baseOf(merged),
      forceFull: false,
      pullFiles: files,
    });

    expect(base).toEqual({ ref: "main", mergeBaseSha: merged.baseSha });
    // The revert is reviewed whole; main's own change (docs) is not the PR's and stays out.
    expect(stepPaths(scope)).toEqual(["src/db.ts"]);
    expect(scope.kind === "incremental" && scope.wholePatch).toEqual(["src/db.ts"]);
  });

  it("reviews a step file whose patch does not parse by its whole-PR patch, never failing", async () => {
    const { repo, pr } = await pullRequest("broken-step");
    const pushed = github.pushCommit(pr, [{ path: "src/b.ts", content: lines(6, "b") }]);
    const files = await pullFiles(repo, pr.number);
    // GitHub's real answer, its one patch broken on the way.
    const compare = octokit.rest.repos.compareCommitsWithBasehead;
    const broken = {
      ...octokit,
      rest: {
        ...octokit.rest,
        repos: {
          ...octokit.rest.repos,
          compareCommitsWithBasehead: async (params: Parameters<typeof compare>[0]) => {
            const answer = await compare(params);
            for (const file of answer.data.files ?? []) file.patch = "@@ -1,3 +1,3 @@\n+one";
            return answer;
          },
        },
      },
    } as unknown as GitHubClient;

    const { scope } = await readReviewScope(broken, repo, {
      previous: reviewedAt(pr),
      headSha: pushed.headSha,
      base: baseOf(pushed),
      forceFull: false,
      pullFiles: files,
    });
    expect(scope).toMatchObject({ kind: "incremental", wholePatch: ["src/b.ts"] });
  });

  it("falls back to a full review after a force-push that rewrote the history", async () => {
    const { repo, pr } = await pullRequest("rebased");
    const pushed = github.pushCommit(pr, [{ path: "src/b.ts", content: lines(6, "b") }], {
      rewrite: true,
    });
    const { scope } = await readReviewScope(octokit, repo, {
      previous: reviewedAt(pr),
      headSha: pushed.headSha,
      base: baseOf(pushed),
      forceFull: false,
      pullFiles: await pullFiles(repo, pr.number),
    });
    expect(scope).toEqual({ kind: "full", reason: "not-ancestor" });
  });

  it("falls back to full when the last reviewed head is gone (404) or is ahead of the new one", async () => {
    const { repo, pr } = await pullRequest("gone");
    const input = { forceFull: false, pullFiles: [] as DiffFile[], base: baseOf(pr) };
    const gone = "0123456789abcdef0123456789abcdef01234567";
    expect(
      (
        await readReviewScope(octokit, repo, {
          ...input,
          previous: reviewedAt({ ...pr, headSha: gone }),
          headSha: pr.headSha,
        })
      ).scope,
    ).toEqual({ kind: "full", reason: "not-ancestor" });
    const pushed = github.pushCommit(pr, [{ path: "src/b.ts", content: "x\n" }]);
    // Reviewed at the newer head, then the branch was reset to the older one.
    expect(
      (
        await readReviewScope(octokit, repo, {
          ...input,
          previous: reviewedAt(pushed),
          headSha: pr.headSha,
        })
      ).scope,
    ).toEqual({ kind: "full", reason: "not-ancestor" });
  });

  it("is full on a first round, when asked for, on the same head, and without a baseline", async () => {
    const { repo, pr } = await pullRequest("asked");
    const input = { headSha: pr.headSha, pullFiles: [] as DiffFile[], base: baseOf(pr) };
    const scope = async (previous: ReviewBaseline | null, forceFull = false) =>
      (await readReviewScope(octokit, repo, { ...input, previous, forceFull })).scope;
    const other = reviewedAt({ ...pr, headSha: "abc" });
    expect(await scope(null)).toEqual({ kind: "full", reason: "first-round" });
    expect(await scope(other, true)).toEqual({ kind: "full", reason: "requested" });
    expect(await scope(reviewedAt(pr))).toEqual({ kind: "full", reason: "no-change" });
    // A lens no model finished at the last head: what it was to review is reviewed now.
    expect(await scope({ ...other, unfinishedLenses: ["security"] })).toEqual({
      kind: "full",
      reason: "previous-partial",
    });
    // Reviewed against another base branch, or with no base recorded.
    expect(await scope({ ...other, base: { ref: "release", mergeBaseSha: pr.baseSha } })).toEqual({
      kind: "full",
      reason: "base-changed",
    });
    expect(await scope({ ...other, base: null })).toEqual({ kind: "full", reason: "base-changed" });
    // Only the merge base now was asked of GitHub, once per call.
    expect(github.requests({ method: "GET", path: "/repos/octo/asked/compare/*" })).toHaveLength(6);
  });

  it("is full when the base branch was rewritten under the PR", async () => {
    const { repo, pr } = await pullRequest("base-rewritten");
    const pushed = github.pushCommit(pr, [{ path: "src/b.ts", content: lines(6, "b") }]);
    // The merge base recorded is not an ancestor of the one now (a commit on no branch).
    const { scope } = await readReviewScope(octokit, repo, {
      previous: reviewedAt(pr, { base: { ref: "main", mergeBaseSha: pushed.headSha } }),
      headSha: pushed.headSha,
      base: baseOf(pushed),
      forceFull: false,
      pullFiles: await pullFiles(repo, pr.number),
    });
    expect(scope).toEqual({ kind: "full", reason: "base-changed" });
  });

  it("reports a GitHub failure past the retries and reviews in full, saying why", async () => {
    const { repo, pr } = await pullRequest("failing");
    const pushed = github.pushCommit(pr, [{ path: "src/b.ts", content: lines(6, "b") }]);
    github.failNext("GET", "/repos/octo/failing/compare/*", 502);
    const errors: unknown[] = [];
    const { scope, base } = await readReviewScope(octokit, repo, {
      previous: reviewedAt(pr),
      headSha: pushed.headSha,
      base: baseOf(pushed),
      forceFull: false,
      pullFiles: [],
      onError: (error) => errors.push(error),
    });
    expect(scope).toEqual({ kind: "full", reason: "unavailable" });
    // Not known, so the next round cannot measure a step against this one either.
    expect(base).toBeNull();
    expect(errors).toHaveLength(1);
    expect((errors[0] as { status?: number }).status).toBe(502);
  });

  it("answers compare as GitHub's OpenAPI description says", async () => {
    const { repo, pr } = await pullRequest("described");
    const pushed = github.pushCommit(pr, [{ path: "src/a.ts", content: lines(29, "a") }]);
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      ...repo,
      basehead: `${pr.headSha}...${pushed.headSha}`,
    });
    const require = createRequire(import.meta.url);
    const spec = JSON.parse(
      readFileSync(require.resolve("@octokit/openapi/generated/api.github.com.json"), "utf8"),
    );
    // Response schemas use OpenAPI 3.0's `nullable` where no `type` stands beside it, which
    // Ajv's own support refuses: it is turned into a `type` union with null instead.
    const nullable = (node: unknown): void => {
      if (typeof node !== "object" || node === null) return;
      const record = node as Record<string, unknown>;
      if (record.nullable === true) {
        delete record.nullable;
        if (typeof record.type === "string") record.type = [record.type, "null"];
        else if (record.type === undefined) {
          const rest = { ...record };
          for (const key of Object.keys(record)) delete record[key];
          record.anyOf = [rest, { type: "null" }];
        }
      }
      for (const value of Object.values(record)) nullable(value);
    };
    nullable(spec.components);
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormatsModule.default(ajv);
    ajv.addSchema(spec, "github");
    const validate = ajv.compile({
      $ref: "github#/paths/~1repos~1{owner}~1{repo}~1compare~1{basehead}/get/responses/200/content/application~1json/schema",
    });
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    expect(data).toMatchObject({ status: "ahead", ahead_by: 1, behind_by: 0 });
  });
});
