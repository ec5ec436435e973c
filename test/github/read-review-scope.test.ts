import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DiffFile } from "../../src/diff/index.js";
import { parsePatch } from "../../src/diff/index.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { readReviewScope } from "../../src/github/read-review-scope.js";
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

describe("readReviewScope", () => {
  it("reviews only the files changed since the last reviewed head, with their step patches", async () => {
    const { repo, pr } = await pullRequest("step");
    const pushed = github.pushCommit(pr, [{ path: "src/b.ts", content: lines(6, "b") }]);
    const files = await pullFiles(repo, pr.number);

    const scope = await readReviewScope(octokit, repo, {
      previousHeadSha: pr.headSha,
      headSha: pushed.headSha,
      forceFull: false,
      pullFiles: files,
    });

    expect(scope.kind).toBe("incremental");
    if (scope.kind !== "incremental") return;
    expect(scope.since).toBe(pr.headSha);
    expect(scope.files.map((file) => file.path)).toEqual(["src/b.ts"]);
    // The step's patch (one line added at 6), not the whole PR's (a new file of six lines).
    const added = scope.files[0]?.hunks.flatMap((hunk) =>
      hunk.lines.filter((line) => line.type === "add").map((line) => line.newLine),
    );
    expect(added).toEqual([6]);
    expect(github.requests({ method: "GET", path: "/repos/octo/step/compare/*" })).toHaveLength(1);
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

    const scope = await readReviewScope(broken, repo, {
      previousHeadSha: pr.headSha,
      headSha: pushed.headSha,
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
    const scope = await readReviewScope(octokit, repo, {
      previousHeadSha: pr.headSha,
      headSha: pushed.headSha,
      forceFull: false,
      pullFiles: await pullFiles(repo, pr.number),
    });
    expect(scope).toEqual({ kind: "full", reason: "not-ancestor" });
  });

  it("falls back to full when the last reviewed head is gone (404) or is ahead of the new one", async () => {
    const { repo, pr } = await pullRequest("gone");
    const input = { forceFull: false, pullFiles: [] as DiffFile[] };
    expect(
      await readReviewScope(octokit, repo, {
        ...input,
        previousHeadSha: "0123456789abcdef0123456789abcdef01234567",
        headSha: pr.headSha,
      }),
    ).toEqual({ kind: "full", reason: "not-ancestor" });
    const pushed = github.pushCommit(pr, [{ path: "src/b.ts", content: "x\n" }]);
    // Reviewed at the newer head, then the branch was reset to the older one.
    expect(
      await readReviewScope(octokit, repo, {
        ...input,
        previousHeadSha: pushed.headSha,
        headSha: pr.headSha,
      }),
    ).toEqual({ kind: "full", reason: "not-ancestor" });
  });

  it("is full without asking GitHub on a first round, when asked for, and on the same head", async () => {
    const { repo, pr } = await pullRequest("asked");
    const base = { headSha: pr.headSha, pullFiles: [] as DiffFile[] };
    expect(
      await readReviewScope(octokit, repo, { ...base, previousHeadSha: null, forceFull: false }),
    ).toEqual({ kind: "full", reason: "first-round" });
    expect(
      await readReviewScope(octokit, repo, { ...base, previousHeadSha: "abc", forceFull: true }),
    ).toEqual({ kind: "full", reason: "requested" });
    expect(
      await readReviewScope(octokit, repo, {
        ...base,
        previousHeadSha: pr.headSha,
        forceFull: false,
      }),
    ).toEqual({ kind: "full", reason: "no-change" });
    expect(github.requests({ method: "GET", path: "/repos/octo/asked/compare/*" })).toEqual([]);
  });

  it("leaves out a step file that is not the PR's own (brought in from the base)", async () => {
    const { repo, pr } = await pullRequest("merged");
    const pushed = github.pushCommit(pr, [
      { path: "src/b.ts", content: lines(6, "b") },
      { path: "docs/from-main.md", content: "merged from main\n" },
    ]);
    const files = (await pullFiles(repo, pr.number)).filter(
      (file) => file.path !== "docs/from-main.md",
    );
    const scope = await readReviewScope(octokit, repo, {
      previousHeadSha: pr.headSha,
      headSha: pushed.headSha,
      forceFull: false,
      pullFiles: files,
    });
    expect(scope.kind === "incremental" && scope.files.map((file) => file.path)).toEqual([
      "src/b.ts",
    ]);
  });

  it("reports a GitHub failure past the retries and reviews in full, saying why", async () => {
    const { repo, pr } = await pullRequest("failing");
    const pushed = github.pushCommit(pr, [{ path: "src/b.ts", content: lines(6, "b") }]);
    github.failNext("GET", "/repos/octo/failing/compare/*", 502);
    const errors: unknown[] = [];
    const scope = await readReviewScope(octokit, repo, {
      previousHeadSha: pr.headSha,
      headSha: pushed.headSha,
      forceFull: false,
      pullFiles: [],
      onError: (error) => errors.push(error),
    });
    expect(scope).toEqual({ kind: "full", reason: "unavailable" });
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
