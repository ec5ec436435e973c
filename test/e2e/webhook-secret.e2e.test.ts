import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliver, issueCommentEvent, pullRequestEvent } from "../fakes/fake-github/index.js";
import { type RunningApp, type Stack, spawnApp, startApp, startStack, waitFor } from "./harness.js";

/** The secret Probot verifies against when none is configured: public knowledge. */
const PROBOT_DEFAULT = "development";

describe("the webhook secret", { timeout: 30_000 }, () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  it.each([
    ["unset", undefined, "WEBHOOK_SECRET: not set"],
    ["empty", "", "WEBHOOK_SECRET: not set"],
    ["Probot's public default", PROBOT_DEFAULT, `WEBHOOK_SECRET: is Probot's public default`],
  ])(
    "%s: the app does not start, and says so in one line naming the variable",
    async (_name, secret, message) => {
      const app = await spawnApp(stack, { WEBHOOK_SECRET: secret });
      const code = await Promise.race([
        app.exited,
        new Promise<"still running">((resolve) =>
          setTimeout(() => resolve("still running"), 20_000),
        ),
      ]);
      if (code === "still running") app.process.kill("SIGKILL");
      expect(code).toBe(1);
      const lines = app.output().trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^gadfly: environment: ${message}`));
      // Nothing was listening, so nothing could have been forged.
      await expect(fetch(`http://127.0.0.1:${app.port}/ping`)).rejects.toThrow();
    },
  );

  it("starts in Probot's setup mode (no APP_ID) without a secret", async () => {
    const app = await spawnApp(stack, { APP_ID: undefined, WEBHOOK_SECRET: undefined });
    try {
      await waitFor(async () => {
        if (app.process.exitCode !== null) throw new Error(`exited:\n${app.output()}`);
        try {
          return (await fetch(`http://127.0.0.1:${app.port}/probot`)).ok;
        } catch {
          return false;
        }
      }, 20_000);
    } finally {
      app.process.kill("SIGTERM");
      await app.exited;
    }
  });

  describe("with a secret set", () => {
    let app: RunningApp;

    beforeAll(async () => {
      app = await startApp(stack);
      // The app asks who it is right after starting: let that settle before counting requests.
      await waitFor(() => stack.github.requests({ method: "GET", path: "/app" }).length > 0);
    }, 60_000);

    afterAll(async () => {
      await app?.stop();
    });

    it("turns away deliveries signed with Probot's default secret with a 4xx and starts nothing", async () => {
      const { github } = stack;
      github.addRepo({ owner: "octo-org", name: "forged", ownerType: "Organization" });
      github.addCollaborator("maintainer", "write", { owner: "octo-org", repo: "forged" });
      const pr = github.addPullRequest({
        owner: "octo-org",
        repo: "forged",
        title: "Forged",
        files: [{ path: "src/a.js", base: "a\n", head: "b\n" }],
      });
      const comment = github.addComment(pr, { body: "@gadfly review", user: "maintainer" });
      const requestsBefore = github.requests().length;
      const responses = [
        await deliver(app.webhookUrl, pullRequestEvent("opened", pr), PROBOT_DEFAULT),
        await deliver(
          app.webhookUrl,
          issueCommentEvent({ pullRequest: pr, comment, association: "MEMBER" }),
          PROBOT_DEFAULT,
        ),
      ];
      for (const response of responses) {
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(github.requests().length).toBe(requestsBefore);
      expect(github.checkRuns(pr.headSha)).toEqual([]);
      expect(github.reactions(comment.id)).toEqual([]);
      expect(stack.openai.requests.length + stack.ollama.requests.length).toBe(0);
    });
  });
});
