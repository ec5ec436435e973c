import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKERS } from "../../src/render/markers.js";
import {
  deliver,
  issueCommentEvent,
  type PullRequestSnapshot,
  pullRequestEvent,
} from "../fakes/fake-github/index.js";
import { appLogs } from "./app-logs.js";
import {
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { type ReviewRouter, routeReviews } from "./route-reviews.js";

const OWNER = "octo-org";
const REPO = "filtered";
const DOWNSHIFTED = "downshifted";
const LABELLED = "labelled";

/**
 * The repository's `filters` at process level: a dependabot PR, a `WIP` title, an oversized PR
 * and a skipped label each start no round and say why on a completed neutral check (the
 * oversized one also gets one comment asking to split it); a writer's `@gadfly review` reviews
 * anyway, and so does a label change that lifts the filter.
 */
describe("pull request filters", { timeout: 60_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;

  const own = (pr: PullRequestSnapshot, marker: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));
  const checks = (pr: PullRequestSnapshot) => stack.github.checkRuns(pr.headSha);
  const reviewed = (pr: PullRequestSnapshot) =>
    checks(pr).filter((check) => check.status === "completed" && check.externalId !== null);
  const decision = async (deliveryId: string) => {
    const skipped = () =>
      appLogs(app.output()).find((line) => line.delivery === deliveryId && line.msg === "no round");
    await waitFor(() => skipped() !== undefined, 10_000);
    return skipped()?.reason;
  };
  const open = async (pr: PullRequestSnapshot) => {
    const opened = pullRequestEvent("opened", pr);
    await deliver(app.webhookUrl, opened, WEBHOOK_SECRET);
    return decision(opened.id);
  };
  const askForReview = async (pr: PullRequestSnapshot) => {
    const comment = stack.github.addComment(pr, { body: "@gadfly review", user: "maintainer" });
    await deliver(
      app.webhookUrl,
      issueCommentEvent({ pullRequest: pr, comment, association: "MEMBER" }),
      WEBHOOK_SECRET,
    );
  };
  const addPull = (title: string, user: string | undefined, files: number) =>
    stack.github.addPullRequest({
      owner: OWNER,
      repo: REPO,
      title,
      ...(user === undefined ? {} : { user }),
      files: Array.from({ length: files }, (_, index) => ({
        path: `src/f${index}.js`,
        base: `export const a${index} = 1;\n`,
        head: `export const a${index} = 2;\n`,
      })),
    });

  beforeAll(async () => {
    stack = await startStack();
    router = routeReviews(stack, { "[filters]": {}, "[downshifted]": {} });
    stack.github.addRepo({
      owner: OWNER,
      name: REPO,
      ownerType: "Organization",
      files: {
        ".github/gadfly.yml":
          "models: [gpt-a]\nlenses: [security]\nfilters:\n  maxSize: { files: 3 }\n",
      },
    });
    stack.github.addCollaborator("maintainer", "write", { owner: OWNER, repo: REPO });
    stack.github.addRepo({
      owner: OWNER,
      name: DOWNSHIFTED,
      ownerType: "Organization",
      files: {
        ".github/gadfly.yml":
          "models: [gpt-a, gpt-b]\nlenses: [security, correctness]\nfilters:\n  maxSize: { files: 3, over: downshift, lenses: [security] }\n",
      },
    });
    stack.github.addRepo({
      owner: OWNER,
      name: LABELLED,
      ownerType: "Organization",
      files: {
        ".github/gadfly.yml":
          "models: [gpt-a]\nlenses: [security]\nfilters:\n  skipLabels: [no-review]\n  onlyLabels: [gadfly]\n",
      },
    });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("skips a dependabot PR with a neutral check saying why, and `@gadfly review` reviews it", async () => {
    const pr = addPull("Bump lodash from 4.17.20 to 4.17.21 [filters]", "dependabot[bot]", 1);
    expect(await open(pr)).toBe(
      "filtered: author dependabot[bot] is a bot skipped by default (filters.reviewBots)",
    );
    await waitFor(() => checks(pr).length === 1, 10_000);
    const [check] = checks(pr);
    expect(check).toMatchObject({ status: "completed", conclusion: "neutral", name: "Gadfly" });
    expect(check?.output.title).toBe(
      "Skipped: author dependabot[bot] is a bot skipped by default (filters.reviewBots)",
    );
    expect(check?.output.summary).toContain("`@gadfly review`");
    expect(router.total("[filters]")).toBe(0);
    expect(own(pr, MARKERS.statusBoard)).toEqual([]);
    expect(own(pr, MARKERS.splitRequest)).toEqual([]);

    await askForReview(pr);
    await waitFor(() => reviewed(pr).length === 1, 30_000);
    expect(router.total("[filters]")).toBe(1);
    await waitFor(() => own(pr, MARKERS.consensus).length === 1, 10_000);
  });

  it("skips a `WIP` title by the default patterns", async () => {
    const before = router.total("[filters]");
    const pr = addPull("WIP: new uploader [filters]", undefined, 1);
    expect(await open(pr)).toBe('filtered: title matches "^WIP" (filters.skipTitles)');
    await waitFor(() => checks(pr).length === 1, 10_000);
    expect(checks(pr)[0]?.output.title).toBe('Skipped: title matches "^WIP" (filters.skipTitles)');
    expect(checks(pr)[0]?.conclusion).toBe("neutral");
    expect(router.total("[filters]")).toBe(before);
  });

  it("asks to split a PR over maxSize in one comment, and a writer's `@gadfly review` overrides it", async () => {
    const pr = addPull("Rewrite everything [filters]", undefined, 4);
    const before = router.total("[filters]");
    const reason = "the pull request is too large to review: 4 files (over 3)";
    expect(await open(pr)).toBe(`filtered: ${reason}`);
    await waitFor(() => own(pr, MARKERS.splitRequest).length === 1, 10_000);
    const split = own(pr, MARKERS.splitRequest)[0]?.body ?? "";
    expect(split).toContain("did not review this pull request: it is too large");
    expect(split).toContain(reason);
    expect(split).toContain("`@gadfly review`");
    await waitFor(() => checks(pr).length === 1, 10_000);
    expect(checks(pr)[0]?.output.title).toBe(`Skipped: ${reason}`);
    expect(router.total("[filters]")).toBe(before);
    // Another push of the same head edits nothing twice: still one comment asking to split.
    await open(pr);
    expect(own(pr, MARKERS.splitRequest)).toHaveLength(1);

    await askForReview(pr);
    await waitFor(() => reviewed(pr).length === 1, 30_000);
    expect(router.total("[filters]")).toBe(before + 1);
    expect(stack.github.validationErrors).toEqual([]);
  });

  it("skips by label, and a label change that lifts the filter reviews the head once", async () => {
    const pr = stack.github.addPullRequest({
      owner: OWNER,
      repo: LABELLED,
      title: "Parse the upload [filters]",
      labels: ["gadfly", "no-review"],
      files: [
        { path: "src/upload.js", base: "export const a = 1;\n", head: "export const a = 2;\n" },
      ],
    });
    const before = router.total("[filters]");
    expect(await open(pr)).toBe('filtered: label "no-review" is skipped (filters.skipLabels)');
    await waitFor(() => checks(pr).length === 1, 10_000);
    expect(checks(pr)[0]?.output.title).toBe(
      'Skipped: label "no-review" is skipped (filters.skipLabels)',
    );
    // A label change that leaves a filter holding says nothing more: still one check.
    const relabel = async (names: string[], action: "labeled" | "unlabeled", label: string) => {
      const event = pullRequestEvent(action, stack.github.setLabels(pr, names), { label });
      await deliver(app.webhookUrl, event, WEBHOOK_SECRET);
      return event.id;
    };
    expect(await decision(await relabel(["no-review"], "unlabeled", "gadfly"))).toBe(
      'filtered: label "no-review" is skipped (filters.skipLabels)',
    );
    expect(await decision(await relabel([], "unlabeled", "no-review"))).toBe(
      "filtered: none of the labels filters.onlyLabels asks for (gadfly)",
    );
    expect(await decision(await relabel(["docs"], "labeled", "docs"))).toBe(
      "filtered: none of the labels filters.onlyLabels asks for (gadfly)",
    );
    expect(checks(pr)).toHaveLength(1);
    expect(router.total("[filters]")).toBe(before);

    // Adding the label asked for, with the skip label gone: the head is reviewed.
    await relabel(["docs", "gadfly"], "labeled", "gadfly");
    await waitFor(() => reviewed(pr).length === 1, 30_000);
    await waitFor(() => own(pr, MARKERS.consensus).length === 1, 10_000);
    expect(router.total("[filters]")).toBe(before + 1);
    // Toggling a label on the reviewed head reviews nothing again.
    const toggled = await relabel(["docs", "gadfly", "later"], "labeled", "later");
    expect(await decision(toggled)).toBe(
      `label change: ${pr.headSha.slice(0, 7)} was already reviewed`,
    );
    expect(router.total("[filters]")).toBe(before + 1);
    expect(reviewed(pr)).toHaveLength(1);
    expect(stack.github.validationErrors).toEqual([]);
  });

  it("downshifts a PR over a maxSize that says `over: downshift`: a smaller round, said on the board", async () => {
    const pr = stack.github.addPullRequest({
      owner: OWNER,
      repo: DOWNSHIFTED,
      title: "Rewrite everything [downshifted]",
      files: Array.from({ length: 4 }, (_, index) => ({
        path: `src/f${index}.js`,
        base: `export const a${index} = 1;\n`,
        head: `export const a${index} = 2;\n`,
      })),
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(() => reviewed(pr).length === 1, 30_000);
    // Only the size cap's lens ran, by both models; correctness was left out.
    expect([...router.calls("[downshifted]").keys()].sort()).toEqual([
      "gpt-a/security",
      "gpt-b/security",
    ]);
    await waitFor(() => own(pr, MARKERS.consensus).length === 1, 10_000);
    const consensus = own(pr, MARKERS.consensus)[0]?.body ?? "";
    expect(consensus).toContain(
      "📉 Downshifted for a large change (4 files): security only — `filters.maxSize`.",
    );
    expect(own(pr, MARKERS.splitRequest)).toEqual([]);
    expect(stack.github.validationErrors).toEqual([]);
  });
});
