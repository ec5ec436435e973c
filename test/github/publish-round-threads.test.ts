import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Consensus } from "../../src/consensus/index.js";
import { parsePatch } from "../../src/diff/index.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { publishRoundResults } from "../../src/github/publish-round-results.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import {
  type FakeGitHub,
  type PullRequestSnapshot,
  startFakeGitHub,
} from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";
import { referenceConsensus, roundTwoConsensus } from "../render/reference-page.js";
import { claimRound } from "../run/store/helpers/claim-round.js";

const repo = { owner: "steve", repo: "mort" };
const lines = (count: number) =>
  `${Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n")}\n`;

let github: FakeGitHub;
let octokit: GitHubClient;
let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;
const warnings: object[] = [];
const log = { info() {}, warn: (fields: object) => warnings.push(fields), error() {} };

beforeAll(async () => {
  github = await startFakeGitHub({ appSlug: "gadfly" });
  github.addRepo({ owner: repo.owner, name: repo.repo });
  const { Octokit } = probotCredentials(github.apiUrl);
  octokit = new Octokit({ auth: { token: "t" } }) as GitHubClient;
});
afterAll(() => github.close());
beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open(temporary.path));
});
afterEach(() => temporary.remove());

async function publish(pr: PullRequestSnapshot, consensus: Consensus, webUrl?: string) {
  const { round } = await store.startRound({
    repo,
    installationId: 1,
    pullNumber: pr.number,
    headSha: pr.headSha,
    trigger: { kind: "push", deliveryId: `d-${pr.headSha}` },
  });
  const lease = await claimRound(store, round.id);
  const { data: check } = await octokit.rest.checks.create({
    ...repo,
    name: "Gadfly",
    head_sha: pr.headSha,
  });
  const files = pr.files.map((file) => parsePatch(file.filename, file.patch ?? ""));
  await publishRoundResults(
    octokit,
    {
      round,
      consensus,
      files,
      render: {},
      checkRunId: check.id,
      publish: { inline: "all", minSeverity: "nit", maxInline: 30 },
      ...(webUrl === undefined ? {} : { webUrl }),
    },
    { store, botLogin: "gadfly[bot]", log },
  );
  await store.finishRound(lease, { state: "completed" });
}

describe("publishRoundResults, threads follow the code", () => {
  it("resolves the thread of a finding fixed in round 2, and lists an unplaceable finding once", async () => {
    // agent/finalize_test.go is not in the diff: its findings cannot go inline.
    const pr = github.addPullRequest({ files: [{ path: "agent/finalize.go", head: lines(300) }] });
    await publish(pr, referenceConsensus());
    const [first] = github.reviews(pr);
    expect(first?.body).toContain("Duplicate test fixture");
    const round2 = github.pushCommit(pr, [{ path: "agent/finalize.go", content: lines(301) }]);
    await publish(round2, roundTwoConsensus());

    const fixedThread = github
      .reviewThreads(pr)
      .find((thread) => thread.comments[0]?.body.includes("fp-closer-discarded"));
    expect(fixedThread?.isResolved).toBe(true);
    expect(fixedThread?.comments[1]?.body).toBe(`Fixed in \`${round2.headSha.slice(0, 7)}\`.`);
    const stillOpen = github
      .reviewThreads(pr)
      .find((thread) => thread.comments[0]?.body.includes("fp-leading-marker"));
    expect(stillOpen?.isResolved).toBe(false);
    const reviews = github.reviews(pr).filter((review) => review.body !== "");
    expect(reviews).toHaveLength(2);
    expect(reviews[1]?.body).not.toContain("Duplicate test fixture");
    expect(warnings).toEqual([]);
    expect(github.validationErrors).toEqual([]);
    expect(github.graphqlErrors).toEqual([]);
  });

  it("links each consensus row to its code at the head SHA and to the inline comment posted after it", async () => {
    const pr = github.addPullRequest({ files: [{ path: "agent/finalize.go", head: lines(300) }] });
    await publish(pr, referenceConsensus(), "https://github.com");
    const consensus = github
      .comments(pr)
      .find((comment) => comment.body.startsWith("<!-- gadfly-consensus -->"));
    const inline = github
      .reviewThreads(pr)
      .map((thread) => thread.comments[0])
      .find((comment) => comment?.body.includes("fp-leading-marker"));
    if (consensus === undefined || inline === undefined) throw new Error("not published");
    // The review is posted after the consensus comment (its body links there): the comment was
    // edited afterwards to link this round's inline comment.
    const row = consensus.body.split("\n").find((line) => line.includes("Leading-marker")) ?? "";
    expect(row).toContain(
      `[inline comment](https://github.com/steve/mort/pull/${pr.number}#discussion_r${inline.id})`,
    );
    expect(row).toContain(
      `(https://github.com/steve/mort/blob/${pr.headSha}/agent/finalize.go#L130-L131)`,
    );
    // A finding that could not go inline links to no comment.
    const unplaced =
      consensus.body.split("\n").find((line) => line.includes("Duplicate test fixture")) ?? "";
    expect(unplaced).not.toContain("inline comment");
    expect(github.validationErrors).toEqual([]);
  });
});
