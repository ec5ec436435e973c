import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_CONFIG_LIMITS } from "../../src/config/repo-config-limits.js";
import { MARKERS } from "../../src/render/markers.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
import {
  MODELS,
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { type ReviewRouter, routeReviews } from "./route-reviews.js";

const NOTICE = MARKERS.configNotice;
const BOARD = MARKERS.statusBoard;
/** Each model call takes this long, so the round is still running while we probe the app. */
const MODEL_CALL_MS = 700;
const APP_LENSES = 5;

/** A glob in the safe subset that keeps every state of its matcher alive on a path of `a`s (it ends in a wildcard: no shortcut on the last characters). */
const HEAVY_GLOB = `${"**/".repeat(8)}*a*a*a*a*a*a*a*a*b*`;
/** 20 segments of 30 `a`s: 620 characters that the heavy glob must walk to the end. */
const LONG_DIRECTORY = Array.from({ length: 20 }, () => "a".repeat(30)).join("/");
const NOT_MATCHED = `${LONG_DIRECTORY}/aaaa.js`;
const MATCHED = `${LONG_DIRECTORY}/${"a".repeat(12)}b`;

const list = (count: number, entry: (index: number) => string) =>
  `[${Array.from({ length: count }, (_, index) => entry(index)).join(", ")}]`;

describe("a hostile .github/gadfly.yml", { timeout: 60_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;

  const own = (pr: PullRequestSnapshot, marker: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));
  const completed = (pr: PullRequestSnapshot) =>
    stack.github.checkRuns(pr.headSha).filter((check) => check.status === "completed");

  /** Probes the app every 100 ms until `done`; returns the slowest answer, in ms. */
  const slowestAnswerWhile = async (
    done: () => boolean,
  ): Promise<{ slowest: number; probes: number }> => {
    let slowest = 0;
    let probes = 0;
    while (!done()) {
      const started = performance.now();
      const response = await fetch(`${app.url}/ping`);
      expect(response.ok).toBe(true);
      slowest = Math.max(slowest, performance.now() - started);
      probes++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { slowest, probes };
  };

  beforeAll(async () => {
    stack = await startStack();
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, MODEL_CALL_MS));
      return undefined;
    };
    router = routeReviews(stack, {
      "[hostile]": { intercept: slow },
      "[greedy]": { intercept: slow },
      "[bystander]": {},
    });
    const { github } = stack;
    github.addRepo({
      owner: "octo-org",
      name: "hostile",
      ownerType: "Organization",
      files: {
        ".github/gadfly.yml": [
          `models: ${list(500, () => "gpt-a")}`,
          "lenses: [security]",
          `ignore: ["(a+)+b", "${HEAVY_GLOB}"]`,
          "",
        ].join("\n"),
      },
    });
    github.addRepo({
      owner: "octo-org",
      name: "greedy",
      ownerType: "Organization",
      files: {
        ".github/gadfly.yml": [
          // Within every count, but each model and lens named many times over.
          `models: ${list(REPO_CONFIG_LIMITS.modelChoices, (index) => (index % 2 === 0 ? "gpt-a" : "gpt-b"))}`,
          `lenses: ${list(REPO_CONFIG_LIMITS.lensChoices, (index) => (index % 2 === 0 ? "security" : "correctness"))}`,
          `ignore: ${list(REPO_CONFIG_LIMITS.ignoreGlobs, (index) => (index === 0 ? `"${HEAVY_GLOB}"` : `"x${index}/**"`))}`,
          "",
        ].join("\n"),
      },
    });
    github.addRepo({
      owner: "octo-org",
      name: "bystander",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "onPush: off\n" },
    });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("500 copies of a model and a catastrophic glob: refused by name, one round on the defaults, the app answers throughout", async () => {
    const pr = stack.github.addPullRequest({
      owner: "octo-org",
      repo: "hostile",
      title: "Hostile [hostile]",
      files: [
        { path: NOT_MATCHED, base: "a\n", head: "b\n" },
        { path: "src/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac.js", base: "a\n", head: "b\n" },
      ],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    const { slowest, probes } = await slowestAnswerWhile(() => completed(pr).length === 1);

    const notice = own(pr, NOTICE)[0]?.body ?? "";
    expect(notice).toContain("`models`");
    expect(notice).toContain("`ignore[0]`");
    expect(notice).toContain("groups and extglobs are not supported");
    // The defaults: each of the app's models through each of its lenses, once.
    const calls = router.calls("[hostile]");
    const reviews = calls.size;
    const modelCalls = router.total("[hostile]");
    console.log(
      `hostile config: 500 duplicate models → ${reviews} reviews, ${modelCalls} model calls (app: ${MODELS.length} models × ${APP_LENSES} lenses); slowest /ping during the round ${slowest.toFixed(0)} ms over ${probes} probes`,
    );
    expect(reviews).toBe(MODELS.length * APP_LENSES);
    expect([...calls.values()].every((count) => count <= 2)).toBe(true);
    expect(probes).toBeGreaterThan(3);
    expect(slowest).toBeLessThan(1_000);
    expect(stack.github.validationErrors).toEqual([]);
  });

  it("every model and lens named dozens of times and the heaviest glob allowed: each reviewed once, the long path matched, other deliveries answered at once", async () => {
    const pr = stack.github.addPullRequest({
      owner: "octo-org",
      repo: "greedy",
      title: "Greedy [greedy]",
      files: [
        { path: NOT_MATCHED, base: "a\n", head: "b\n" },
        { path: MATCHED, base: "a\n", head: "b\n" },
      ],
    });
    const bystander = stack.github.addPullRequest({
      owner: "octo-org",
      repo: "bystander",
      title: "Bystander [bystander]",
      files: [{ path: "src/b.js", base: "a\n", head: "b\n" }],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    // Another installation's delivery while the round runs: answered within a second.
    await waitFor(() => router.total("[greedy]") > 0, 10_000);
    const started = performance.now();
    const other = await deliver(
      app.webhookUrl,
      pullRequestEvent("opened", bystander),
      WEBHOOK_SECRET,
    );
    const answeredIn = performance.now() - started;
    expect(other.status).toBeLessThan(300);
    expect(completed(pr)).toEqual([]);
    const { slowest } = await slowestAnswerWhile(() => completed(pr).length === 1);

    const calls = router.calls("[greedy]");
    console.log(
      `greedy config: ${REPO_CONFIG_LIMITS.modelChoices} model entries, ${REPO_CONFIG_LIMITS.lensChoices} lens entries → ${calls.size} reviews, ${router.total("[greedy]")} model calls; a second delivery answered in ${answeredIn.toFixed(0)} ms, slowest /ping ${slowest.toFixed(0)} ms`,
    );
    expect([...calls.keys()].sort()).toEqual([
      "gpt-a/correctness",
      "gpt-a/security",
      "gpt-b/correctness",
      "gpt-b/security",
    ]);
    // Once each (a verify turn at most): a model named 25 times is not reviewed 25 times.
    expect([...calls.values()].every((count) => count <= 2)).toBe(true);
    expect(answeredIn).toBeLessThan(1_000);
    expect(slowest).toBeLessThan(1_000);
    expect(own(pr, NOTICE)).toEqual([]);
    await waitFor(() => (own(pr, BOARD)[0]?.body ?? "").includes("Not reviewed"), 10_000);
    const board = own(pr, BOARD)[0]?.body ?? "";
    // One file left out, the one the glob matches (the board shortens long paths from the left).
    expect(board).toContain("**Not reviewed:** 1 file");
    expect(board).toContain(`${"a".repeat(12)}b\` — ignored by configuration`);
  });
});
