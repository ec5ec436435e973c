import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKERS } from "../../src/render/markers.js";
import { deliver, issueCommentEvent, pullRequestEvent } from "../fakes/fake-github/index.js";
import {
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { routeReviews } from "./route-reviews.js";

const REPO = { owner: "octo-org", repo: "flooded" };

/**
 * A small write budget (10 a minute, a burst of 10) and a reader who pushes to their fork's
 * PR twenty times within the quiet period: the waiting board is posted once, at the lowest
 * priority, and later pushes take it over without a write. A maintainer's `@gadfly review
 * full` on their own PR then gets its 👀 at once and its round publishes.
 */
describe("writes that pushes cannot flood", { timeout: 120_000 }, () => {
  let stack: Stack;
  let app: RunningApp;

  const writes = () =>
    stack.github.requests().filter((request) => ["POST", "PATCH"].includes(request.method));

  beforeAll(async () => {
    stack = await startStack({
      models: [{ id: "gpt-a", provider: "openai" }],
      review: "  concurrency: 8\n  maxTurns: 6\n  timeoutSeconds: 60\n  debounceSeconds: 5",
    });
    routeReviews(stack, { "[flood]": {}, "[owner]": {} });
    stack.github.addRepo({
      owner: REPO.owner,
      name: REPO.repo,
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security]\n" },
    });
    stack.github.addCollaborator("maintainer", "write", REPO);
    app = await startApp(stack, {
      GADFLY_GITHUB_WRITES_PER_MINUTE: "10",
      GADFLY_GITHUB_WRITE_BURST: "10",
    });
    await waitFor(() => stack.github.requests({ method: "GET", path: "/app" }).length > 0);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("twenty reader pushes cost one board write; the maintainer's trigger writes at once", async () => {
    const before = writes().length;
    let pr = stack.github.addPullRequest({
      ...REPO,
      title: "Many pushes [flood]",
      user: "mallory",
      headRepository: { owner: "mallory", name: REPO.repo },
      files: [{ path: "src/flood.js", base: "a\n", head: "b\n" }],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    for (let push = 1; push < 20; push++) {
      const previous = pr.headSha;
      pr = stack.github.pushCommit(pr, [{ path: "src/flood.js", content: `${push}\n` }]);
      const response = await deliver(
        app.webhookUrl,
        pullRequestEvent("synchronize", pr, { before: previous }),
        WEBHOOK_SECRET,
      );
      expect(response.status).toBeLessThan(300);
    }
    const boardWrites = writes()
      .slice(before)
      .filter((request) =>
        String((request.body as { body?: unknown } | null)?.body ?? "").startsWith(
          MARKERS.statusBoard,
        ),
      );
    expect(boardWrites).toHaveLength(1);

    const owner = stack.github.addPullRequest({
      ...REPO,
      title: "Owner's change [owner]",
      files: [{ path: "src/owner.js", base: "a\n", head: "b\n" }],
    });
    const comment = stack.github.addComment(owner, {
      body: "@gadfly review full",
      user: "maintainer",
    });
    const askedAt = Date.now();
    await deliver(
      app.webhookUrl,
      issueCommentEvent({ pullRequest: owner, comment, association: "MEMBER" }),
      WEBHOOK_SECRET,
    );
    await waitFor(() => stack.github.reactions(comment.id).length > 0, 1_000);
    expect(Date.now() - askedAt).toBeLessThan(1_000);
    await waitFor(
      () => stack.github.checkRuns(owner.headSha).some((check) => check.status === "completed"),
      40_000,
    );
    expect(stack.github.validationErrors).toEqual([]);
  });
});
