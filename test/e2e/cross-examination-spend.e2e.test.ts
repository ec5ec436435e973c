import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import { deliver, pullRequestEvent } from "../fakes/fake-github/index.js";
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

const [GLM, KIMI, GPT_A, GPT_B] = MODELS.map((model) => model.id) as [
  string,
  string,
  string,
  string,
];
const FILE = "src/upload.js";
const claim: LensFinding = {
  file: FILE,
  line: 2,
  endLine: 2,
  severity: "medium",
  title: "The upload path is joined without normalisation",
  body: "`join(root, name)` with a `..` in the name escapes the root.",
  confidence: "high",
};
/** What the fake OpenAI server reports for gpt-a's answer to the challenge. */
const ANSWERED = { inputTokens: 4_321, outputTokens: 55 };

type ChallengeRow = {
  model: string;
  outcome: string;
  input_tokens: number | null;
  output_tokens: number | null;
};

/**
 * Cross-examination is metered like review: what an answered challenge cost is stored as the
 * provider reported it, and a challenge aborted in flight (its round superseded by a push) is
 * stored with its call's estimate, so both count toward the daily caps (installationSpend).
 */
describe("cross-examination spend", { timeout: 90_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;

  const challenges = (headSha: string) =>
    readAppStore<ChallengeRow>(
      stack.dataDir,
      `SELECT c.model, c.outcome, c.input_tokens, c.output_tokens FROM round_challenges c
         JOIN rounds r ON r.id = c.round_id WHERE r.head_sha = ? ORDER BY c.model`,
      headSha,
    );

  beforeAll(async () => {
    stack = await startStack();
    router = routeReviews(stack, {
      "[xe-spend]": {
        // Kimi's lone finding is put to the three others.
        findings: (model) => (model === KIMI ? [claim] : []),
        intercept: (request) => {
          if (request.lens !== CHALLENGE_LENS) return undefined;
          // gpt-b's challenge never answers: it is in flight when the push aborts it.
          if (request.model === GPT_B) return { hang: true };
          if (request.model !== GPT_A) return undefined;
          const answer = { verdict: "confirm", reason: "seen", checked: `${FILE}:2` };
          return {
            text: `\`\`\`gadfly-challenge\n${JSON.stringify(answer)}\n\`\`\``,
            usage: ANSWERED,
          };
        },
      },
    });
    stack.github.addRepo({
      owner: "octo-org",
      name: "examined",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security]\n" },
    });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop("SIGKILL");
    await stack?.close();
  });

  it("stores an answered challenge's reported usage and an aborted one's estimate", async () => {
    const pr = stack.github.addPullRequest({
      owner: "octo-org",
      repo: "examined",
      title: "Uploads [xe-spend]",
      files: [
        {
          path: FILE,
          base: "export const root = '/srv';\n",
          head: "export const root = '/srv';\nexport const upload = (name) => join(root, name);\n",
        },
      ],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(
      () =>
        challenges(pr.headSha).length === 2 &&
        router.calls("[xe-spend]").get(`${GPT_B}/${CHALLENGE_LENS}`) === 1,
      40_000,
    );
    // A push while gpt-b's challenge is in flight supersedes the round and aborts the call.
    const pushed = stack.github.pushCommit(pr, [{ path: FILE, content: "export const x = 1;\n" }]);
    await deliver(
      app.webhookUrl,
      pullRequestEvent("synchronize", pushed, { before: pr.headSha }),
      WEBHOOK_SECRET,
    );
    await waitFor(() => challenges(pr.headSha).length === 3, 20_000);
    const rows = challenges(pr.headSha);
    const byModel = new Map(rows.map((row) => [row.model, row]));
    // As the fake OpenAI server reported it: the estimate charged first is netted out.
    expect(byModel.get(GPT_A)).toMatchObject({
      outcome: "answered",
      input_tokens: ANSWERED.inputTokens,
      output_tokens: ANSWERED.outputTokens,
    });
    // Aborted in flight: the prompt it was sent (instructions, the claim, the tools), estimated.
    const aborted = byModel.get(GPT_B);
    expect(aborted?.outcome).toBe("cancelled");
    expect(aborted?.input_tokens ?? 0).toBeGreaterThan(500);
    expect(byModel.get(GLM)?.outcome).toBe("answered");
    expect(byModel.get(GLM)?.input_tokens ?? 0).toBeGreaterThan(0);
    expect(stack.github.validationErrors).toEqual([]);
  });
});
