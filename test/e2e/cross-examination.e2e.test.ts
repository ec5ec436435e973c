import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import { MARKERS } from "../../src/render/markers.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
import { CHALLENGE_LENS } from "../fakes/model-script.js";
import {
  MODELS,
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { readAppStore } from "./read-app-store.js";
import { type ReviewRouter, routeReviews } from "./route-reviews.js";

const BOARD = MARKERS.statusBoard;
const CONSENSUS = MARKERS.consensus;
const FILE = "src/server.js";
const [GLM, KIMI, GPT_A, GPT_B] = MODELS.map((model) => model.id) as [
  string,
  string,
  string,
  string,
];

const finding = (
  line: number,
  severity: LensFinding["severity"],
  title: string,
  body: string,
): LensFinding => ({ file: FILE, line, endLine: line, severity, confidence: "high", title, body });

/** Lone findings, each reported by one model only. */
const nit = finding(2, "nit", "`retries` could be named `maxRetries`", "A naming nit.");
const confirmed = finding(
  4,
  "medium",
  "The request body is parsed without a size limit",
  "`JSON.parse(await readAll(req))` reads the whole body into memory first.",
);
const refuted = finding(
  6,
  "medium",
  "The timeout handler never clears its timer",
  "`setTimeout` is started on each request and never cleared.",
);
const crashClaim = finding(
  4,
  "medium",
  "The upload path is joined without normalisation",
  "`join(root, name)` with a `..` in the name escapes the root.",
);

/** Challenges the app saved for a PR's rounds, read from its SQLite store as it runs. */
function savedChallenges(
  dataDir: string,
  pullNumber: number,
): { model: string; outcome: string; verdict: string | null }[] {
  return readAppStore(
    dataDir,
    `SELECT c.model, c.outcome, c.verdict FROM round_challenges c
     JOIN rounds r ON r.id = c.round_id WHERE r.pull_number = ? ORDER BY c.model`,
    pullNumber,
  );
}

const HEAD = [
  "const retries = 3;",
  "export const retries2 = retries;",
  "export async function handle(req) {",
  "  const body = JSON.parse(await readAll(req));",
  "  const timer = setTimeout(() => abort(req), 5000);",
  "  return route(body, timer);",
  "}",
  "export const root = '/srv';",
  "export const upload = (name) => join(root, name);",
];
const text = (lines: readonly string[]) => `${lines.join("\n")}\n`;

describe("cross-examination: consensus decides what is posted inline", { timeout: 60_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;
  /** While set, gpt-b's answer to a challenge hangs (until the app dies). */
  let challengeHangs = true;

  const own = (pr: PullRequestSnapshot, marker: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));
  const challengeCalls = (tag: string) =>
    [...router.calls(tag)].filter(([key]) => key.endsWith(`/${CHALLENGE_LENS}`));
  const open = async (title: string) => {
    const pr = stack.github.addPullRequest({
      owner: "octo-org",
      repo: "gated",
      title,
      files: [{ path: FILE, base: text(HEAD.map((line) => `// ${line}`)), head: text(HEAD) }],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    return pr;
  };
  const ended = async (pr: PullRequestSnapshot) => {
    await waitFor(
      () => stack.github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
      30_000,
    );
    await waitFor(() => own(pr, CONSENSUS).length === 1);
    await waitFor(() => (own(pr, BOARD)[0]?.body ?? "").includes("4/4 reviewers finished"));
  };

  beforeAll(async () => {
    stack = await startStack();
    router = routeReviews(stack, {
      "[gate]": {
        findings: (model) => (model === GPT_A ? [nit, confirmed] : model === KIMI ? [refuted] : []),
        challenge: (challenger, claim) => {
          if (claim.title === confirmed.title) return challenger === GPT_B ? "confirm" : "unsure";
          if (claim.title === refuted.title) return challenger === GLM ? "unsure" : "refute";
          return "confirm";
        },
      },
      "[xe-crash]": {
        findings: (model) => (model === GPT_A ? [crashClaim] : []),
        challenge: (challenger) => (challenger === GLM ? "confirm" : "unsure"),
        intercept: (request) =>
          request.lens === CHALLENGE_LENS && request.model === GPT_B && challengeHangs
            ? { hang: true }
            : undefined,
      },
    });
    stack.github.addRepo({
      owner: "octo-org",
      name: "gated",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security]\n" },
    });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop("SIGKILL");
    await stack?.close();
  });

  it("posts inline only what models agree on: a lone nit stays in the consensus, a confirmed medium is inline, a refuted one is disputed", async () => {
    const pr = await open("Harden the server [gate]");
    await ended(pr);
    const { github } = stack;

    // Each lone medium was put to the three other models; the nit to nobody.
    const asked = challengeCalls("[gate]");
    expect(asked.map(([key]) => key).sort()).toEqual(
      MODELS.map((model) => `${model.id}/${CHALLENGE_LENS}`).sort(),
    );
    expect(asked.reduce((sum, [, count]) => sum + count, 0)).toBe(6);
    expect(router.calls("[gate]").get(`${GPT_A}/${CHALLENGE_LENS}`)).toBe(1);
    expect(router.calls("[gate]").get(`${KIMI}/${CHALLENGE_LENS}`)).toBe(1);

    const reviews = github.reviews(pr);
    expect(reviews).toHaveLength(1);
    const inline = reviews[0]?.comments ?? [];
    expect(inline.map((comment) => comment.line)).toEqual([confirmed.line]);
    expect(inline[0]?.body).toContain(confirmed.title);
    expect(inline[0]?.body).toContain(`confirmed by ${GPT_B}`);
    expect(reviews[0]?.body).toContain(
      "1 single-model finding below high severity and 1 single-model finding other models refuted are in the consensus comment only.",
    );

    const consensus = own(pr, CONSENSUS)[0]?.body ?? "";
    expect(consensus).toContain("could be named");
    expect(consensus).toContain(`confirmed by ${GPT_B} on challenge`);
    const disputedAt = consensus.indexOf("disputed finding");
    expect(disputedAt).toBeGreaterThan(-1);
    const disputed = consensus.slice(disputedAt);
    expect(disputed).toContain(refuted.title);
    expect(disputed).toContain(GPT_A);
    expect(disputed).toContain(GPT_B);
    expect(consensus.slice(0, disputedAt)).not.toContain(refuted.title);

    const board = own(pr, BOARD)[0]?.body ?? "";
    const phases = {
      [GLM]: "2 asked · 0 confirmed · 0 refuted · 2 unsure",
      [KIMI]: "1 asked · 0 confirmed · 0 refuted · 1 unsure",
      [GPT_A]: "1 asked · 0 confirmed · 1 refuted · 0 unsure",
      [GPT_B]: "2 asked · 1 confirmed · 1 refuted · 0 unsure",
    };
    for (const [model, line] of Object.entries(phases)) {
      const section = board.slice(board.indexOf(`\`${model}\``)).split("\n####")[0] ?? "";
      expect(`${section}\n`).toContain(`- 🔍 cross-examination: ${line}\n`);
    }
    expect(board).not.toContain("cross-examining");
    expect(github.validationErrors).toEqual([]);
  });

  it("a crash during cross-examination resumes without asking again what was answered", async () => {
    challengeHangs = true;
    const pr = await open("Uploads [xe-crash]");
    await waitFor(
      () =>
        savedChallenges(stack.dataDir, pr.number).length === 2 &&
        router.calls("[xe-crash]").get(`${GPT_B}/${CHALLENGE_LENS}`) === 1,
      30_000,
    );
    // The board says who the round waits on while it does.
    await waitFor(() => (own(pr, BOARD)[0]?.body ?? "").includes("cross-examining (0/1 answered)"));
    const before = router.calls("[xe-crash]");
    expect(await app.stop("SIGKILL")).toBeNull();

    challengeHangs = false;
    app = await startApp(stack);
    await ended(pr);

    const after = router.calls("[xe-crash]");
    for (const model of [GLM, KIMI]) {
      expect(after.get(`${model}/${CHALLENGE_LENS}`)).toBe(1);
    }
    expect(after.get(`${GPT_B}/${CHALLENGE_LENS}`)).toBe(2);
    // The finished lenses are not paid for again either.
    for (const model of MODELS) {
      expect(after.get(`${model.id}/security`)).toBe(before.get(`${model.id}/security`));
    }
    expect(after.get(`${GPT_A}/${CHALLENGE_LENS}`)).toBeUndefined();
    expect(savedChallenges(stack.dataDir, pr.number)).toEqual([
      { model: GLM, outcome: "answered", verdict: "confirm" },
      { model: GPT_B, outcome: "answered", verdict: "unsure" },
      { model: KIMI, outcome: "answered", verdict: "unsure" },
    ]);

    const { github } = stack;
    expect(github.reviews(pr)).toHaveLength(1);
    expect(github.reviews(pr)[0]?.comments.map((comment) => comment.line)).toEqual([
      crashClaim.line,
    ]);
    expect(own(pr, CONSENSUS)[0]?.body).toContain(`confirmed by ${GLM} on challenge`);
    expect(own(pr, BOARD)).toHaveLength(1);
    expect(github.validationErrors).toEqual([]);
  });
});
