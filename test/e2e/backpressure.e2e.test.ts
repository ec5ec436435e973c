import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliver, pullRequestEvent } from "../fakes/fake-github/index.js";
import {
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { type ReviewRouter, routeReviews } from "./route-reviews.js";

describe("backpressure: ten PRs at once under a global cap of 8", { timeout: 30_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;
  let live = 0;
  let peak = 0;
  let peakSampled = 0;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });

  beforeAll(async () => {
    stack = await startStack({ review: "  concurrency: 8\n  maxTurns: 6\n  timeoutSeconds: 60" });
    router = routeReviews(stack, {
      "[load]": {
        intercept: async () => {
          // Both fakes' requests in flight, sampled as each call arrives.
          peakSampled = Math.max(peakSampled, stack.ollama.inFlight + stack.openai.inFlight);
          live += 1;
          peak = Math.max(peak, live);
          await gate;
          live -= 1;
          return undefined;
        },
      },
    });
    stack.github.addRepo({
      owner: "octo-org",
      name: "busy",
      ownerType: "Organization",
      // One model behind each fake, two lenses: four reviews per round, forty in all.
      files: {
        ".github/gadfly.yml": "models: [glm-5.2:cloud, gpt-a]\nlenses: [security, correctness]\n",
      },
    });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    release();
    await app?.stop("SIGKILL");
    await stack?.close();
  });

  it("never has more than 8 model calls in flight across all rounds", async () => {
    const { github } = stack;
    const prs = Array.from({ length: 10 }, (_, index) =>
      github.addPullRequest({
        owner: "octo-org",
        repo: "busy",
        title: `Change ${index + 1} [load]`,
        files: [{ path: `src/file-${index + 1}.js`, base: "a\n", head: `b${index}\n` }],
      }),
    );
    const responses = await Promise.all(
      prs.map((pr) => deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET)),
    );
    for (const response of responses) expect(response.status).toBeLessThan(300);

    // Every round has its snapshot (so its reviews are queued), and the cap is full.
    await waitFor(
      () =>
        prs.every(
          (pr) =>
            github.requests({ method: "GET", path: `/repos/octo-org/busy/tarball/${pr.headSha}` })
              .length > 0,
        ),
      25_000,
    );
    await waitFor(() => live === 8, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(live).toBe(8);
    expect(peak).toBe(8);

    release();
    await waitFor(() => router.total("[load]") === 40, 15_000);
    expect(peak).toBe(8);
    expect(peakSampled).toBeLessThanOrEqual(8);
    expect(stack.ollama.maxInFlight + stack.openai.maxInFlight).toBeGreaterThanOrEqual(8);
  });
});
