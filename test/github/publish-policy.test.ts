import { Probot } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LensDefinition, loadLenses } from "../../src/agent/load-lenses.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { lensesFor, planReview } from "../../src/config/plan-review.js";
import { RepoConfig } from "../../src/config/repo-config-schema.js";
import { AppConfig } from "../../src/config/schema.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { LensFinding } from "../../src/findings/schema.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { runPullRequestRound } from "../../src/github/round/run-pull-request-round.js";
import type { ChatModel } from "../../src/llm/language-model.js";
import { MARKERS } from "../../src/render/markers.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import { claimedRound } from "../helpers/claimed-round.js";
import { roundDependencies } from "../helpers/round-dependencies.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

/*
 * Consensus decides what speaks: a round run against the fake GitHub (which validates every
 * request against GitHub's OpenAPI description) with three scripted models, publishing
 * under the repository's `publish` policy.
 */

const CONSENSUS = MARKERS.consensus;
const REVIEW = MARKERS.inlineReview;
const FILE = "src/server.js";
const MODELS = ["m1", "m2", "m3"];

const base = Array.from({ length: 40 }, (_, index) => `export const v${index + 1} = ${index};`);
const head = base.map((line, index) =>
  [4, 14, 24, 34].includes(index + 1) ? `${line} // +` : line,
);

const at = (line: number, severity: LensFinding["severity"], title: string): LensFinding => ({
  file: FILE,
  line,
  endLine: line,
  severity,
  confidence: "high",
  title,
  body: `${title}.`,
});
const AGREED = at(4, "medium", "The retry count is read from the request without a bound");
const LONE_HIGH = at(14, "high", "The admin token is compared with == and leaks timing");
const LONE_NIT = at(24, "nit", "Trailing comment restates the code");
const LONE_LOW = at(34, "low", "Magic number should be a named constant");

/** Who reports what: two models agree on one finding; the rest are one model's each. */
const SCRIPT: Record<string, LensFinding[]> = {
  m1: [AGREED, LONE_NIT],
  m2: [{ ...AGREED, confidence: "medium" }, LONE_HIGH],
  m3: [LONE_LOW],
};

const config = AppConfig.parse({
  providers: [{ name: "local", type: "ollama" }],
  models: MODELS.map((id) => ({ id, provider: "local" })),
  review: { lenses: ["security"], verify: false },
});

function scriptedModel(modelId: string): ChatModel {
  return {
    kind: "chat",
    provider: "local",
    modelId,
    chat: async () => ({
      text: renderLensAnswer("Minor issues", SCRIPT[modelId] ?? [], "Reviewed."),
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 1, outputTokens: 1 },
    }),
  };
}

let github: FakeGitHub;
let probot: Probot;
let lenses: LensDefinition[];
let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;
let installationId = 0;

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  const { privateKey, Octokit } = probotCredentials(github.apiUrl);
  probot = new Probot({ appId: 1, privateKey, Octokit, logLevel: "fatal" });
  lenses = await loadLenses();
  ({ installationId } = github.addRepo({ owner: "octo-org", name: "api" }));
});
afterAll(() => github.close());

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open(temporary.path));
});
afterEach(() => temporary.remove());

/** Runs one round of a fresh pull request with the repository's `.github/gadfly.yml` text. */
async function reviewWith(repoYaml: string) {
  const pr = github.addPullRequest({
    owner: "octo-org",
    repo: "api",
    title: "Tune the server",
    files: [{ path: FILE, base: `${base.join("\n")}\n`, head: `${head.join("\n")}\n` }],
  });
  const octokit = (await probot.auth(installationId)) as GitHubClient;
  const { round } = await store.startRound({
    repo: { owner: "octo-org", repo: "api" },
    installationId,
    pullNumber: pr.number,
    headSha: pr.headSha,
    trigger: { kind: "push", deliveryId: `d-${pr.number}` },
  });
  const { plan, issues } = planReview(
    config,
    { config: parseConfigText(".github/gadfly.yml", repoYaml, RepoConfig), issues: null },
    lenses,
  );
  expect(issues).toEqual([]);
  await runPullRequestRound(
    octokit,
    {
      ...(await claimedRound(store, round.id)),
      plan,
      lenses: lensesFor(plan, lenses),
      fromFork: false,
    },
    roundDependencies(
      { store, dataDir: temporary.directory },
      {
        config,
        limiter: createReviewerLimiter(3),
        lenses,
        createModel: (model) => scriptedModel(model.id),
      },
    ),
  );
  expect((await store.findRound(round.id))?.state).toBe("completed");
  const own = (marker: string) =>
    github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));
  const reviews = github.reviews(pr);
  expect(github.validationErrors).toEqual([]);
  return {
    consensus: own(CONSENSUS)[0]?.body ?? "",
    reviews,
    inline: reviews.flatMap((review) =>
      review.comments.map((comment) => ({ line: comment.line, body: comment.body })),
    ),
  };
}

const lines = (inline: readonly { line: number | null }[]) =>
  inline.map((comment) => comment.line ?? 0).sort((a, b) => a - b);

describe("the publishing policy decides which findings go inline", () => {
  it("by default: the agreed finding and the lone high inline; lone lower ones in the consensus only", async () => {
    const { consensus, reviews, inline } = await reviewWith("lenses: [security]\n");
    expect(consensus).toContain("consensus across 3 models");
    // Every finding is in the consensus comment, the lone ones among the single-model findings.
    expect(consensus).toContain("3 single-model findings");
    for (const finding of [AGREED, LONE_HIGH, LONE_NIT, LONE_LOW]) {
      expect(consensus).toContain(finding.title);
    }
    expect(lines(inline)).toEqual([4, 14]);
    expect(inline[0]?.body).toContain("flagged by 2 models");
    expect(inline.map((comment) => comment.body).join("\n")).not.toContain(LONE_NIT.title);
    expect(reviews).toHaveLength(1);
    const body = reviews[0]?.body ?? "";
    expect(body.startsWith(REVIEW)).toBe(true);
    expect(body).toContain("2 inline findings on changed lines");
    expect(body).toContain(
      "\n2 single-model findings below high severity are in the consensus comment only.\n",
    );
    expect(body).not.toContain(LONE_NIT.title);
  });

  it("`inline: all` puts the lone nit (and every other finding) inline, with no held-back line", async () => {
    const { reviews, inline } = await reviewWith("lenses: [security]\npublish:\n  inline: all\n");
    expect(lines(inline)).toEqual([4, 14, 24, 34]);
    expect(inline.some((comment) => comment.body.includes(LONE_NIT.title))).toBe(true);
    expect(reviews[0]?.body).not.toContain("consensus comment only");
  });

  it("minSeverity and maxInline hold back more, and the line says why", async () => {
    const { reviews, inline } = await reviewWith(
      "publish: { inline: all, minSeverity: low, maxInline: 2 }\n",
    );
    expect(lines(inline)).toEqual([4, 14]);
    expect(reviews[0]?.body).toContain(
      "\n1 finding below low severity and 1 over the limit of 2 inline comments are in the consensus comment only.\n",
    );
  });

  it("posts no review when nothing goes inline: a review saying only what was held back is noise", async () => {
    const off = await reviewWith("publish:\n  inline: off\n");
    expect(off.reviews).toEqual([]);
    expect(off.consensus).toContain(LONE_NIT.title);
    const none = await reviewWith("publish:\n  maxInline: 0\n");
    expect(none.reviews).toEqual([]);
    expect(none.consensus).toContain(AGREED.title);
  });
});
