import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import {
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "../e2e/harness.js";
import { type ReviewRouter, routeReviews } from "../e2e/route-reviews.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
import type { FakeModelRequest } from "../fakes/model-script.js";
import { boardLensLine } from "./board-lens-line.js";
import { FaultOutcomes } from "./fault-outcomes.js";
import { publishedArtifacts } from "./published-artifacts.js";
import { unhandledErrors } from "./unhandled-errors.js";

/*
 * Each fake model misbehaving the way real providers do, one pull request per
 * fault, all reviewed at once by one app process. Every PR is reviewed by two
 * models through one lens: the faulty one and, unless both are faulty, a
 * healthy one, so a partial review must say it is partial.
 */

const REPO = { owner: "octo-org", repo: "model-faults" };
const OPENAI_MODEL = "gpt-a";
const OLLAMA_MODEL = "glm-5.2:cloud";
const TIMEOUT_SECONDS = 5;
const MAX_TURNS = 3;
const PARTIAL = "(partial: 1 of 2 lens reviews did not complete)";
const FILE = "src/limits.js";
const PROVIDER_OF: Record<string, string> = {
  [OPENAI_MODEL]: "openai",
  [OLLAMA_MODEL]: "ollama-cloud",
};

const leak: LensFinding = {
  file: FILE,
  line: 2,
  endLine: 2,
  severity: "high",
  confidence: "high",
  title: "The API token is written to the logs",
  body: "`console.log(process.env.TOKEN)` prints the token.",
};
const garbage = 'lol idk 🤷 looks fine i guess {"findings": [unterminated';
const offersTools = (request: FakeModelRequest) => request.tools.length > 0;

describe("model faults", { timeout: 60_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let router: ReviewRouter;
  const outcomes = new FaultOutcomes("Model faults");
  const pulls = new Map<string, PullRequestSnapshot>();
  /** When each call of the rate-limited model arrived. */
  const rateLimitedCalls: number[] = [];

  beforeAll(async () => {
    stack = await startStack({
      review: `  concurrency: 16\n  maxTurns: ${MAX_TURNS}\n  timeoutSeconds: ${TIMEOUT_SECONDS}`,
    });
    router = routeReviews(stack, {
      "[hang]": {
        intercept: (request) => (request.model === OLLAMA_MODEL ? { hang: true } : undefined),
      },
      "[http-500]": {
        intercept: (request) =>
          request.model === OPENAI_MODEL
            ? { error: 500, body: { error: { message: "upstream exploded" } } }
            : undefined,
      },
      "[rate-429]": {
        findings: () => [leak],
        intercept: (request) => {
          if (request.model !== OPENAI_MODEL) return undefined;
          rateLimitedCalls.push(Date.now());
          return rateLimitedCalls.length === 1
            ? { error: 429, headers: { "retry-after": "1" } }
            : undefined;
        },
      },
      "[garbage-empty]": {
        intercept: (request) => ({ text: request.model === OPENAI_MODEL ? garbage : "" }),
      },
      "[tool-loop]": {
        // The OpenAI model answers once tools are taken away; the Ollama one never stops calling them.
        intercept: (request) =>
          request.model === OLLAMA_MODEL || offersTools(request)
            ? { toolCalls: [{ name: "read_file", arguments: { path: FILE } }] }
            : undefined,
      },
    });
    stack.github.addRepo({
      owner: REPO.owner,
      name: REPO.repo,
      ownerType: "Organization",
      files: {
        ".github/gadfly.yml": `models: [${OPENAI_MODEL}, "${OLLAMA_MODEL}"]\nlenses: [security]\n`,
      },
    });
    app = await startApp(stack);
    for (const tag of ["[hang]", "[http-500]", "[rate-429]", "[garbage-empty]", "[tool-loop]"]) {
      const pr = stack.github.addPullRequest({
        ...REPO,
        title: `Log the limits ${tag}`,
        files: [
          {
            path: FILE,
            base: "export const limit = 1;\n",
            head: "export const limit = 1;\nconsole.log(process.env.TOKEN);\n",
          },
        ],
      });
      pulls.set(tag, pr);
      await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    }
  }, 60_000);

  afterAll(async () => {
    if (outcomes.rows.some((row) => !row.held)) {
      console.log(`the app's output:\n${app?.output().split("\n").slice(-60).join("\n")}`);
    }
    await app?.stop();
    await stack?.close();
    outcomes.print(6);
  });

  const pull = (tag: string): PullRequestSnapshot => {
    const pr = pulls.get(tag);
    if (pr === undefined) throw new Error(`no pull request for ${tag}`);
    return pr;
  };

  /** Waits for the round to end, then checks it published one of everything and crashed nothing. */
  const endedOnce = async (tag: string) => {
    const pr = pull(tag);
    const { github } = stack;
    await waitFor(
      () => publishedArtifacts(github, pr).checks.some((check) => check.status === "completed"),
      45_000,
    );
    await waitFor(() =>
      (publishedArtifacts(github, pr).boards[0]?.body ?? "").includes("2/2 reviewers finished"),
    );
    await waitFor(() => publishedArtifacts(github, pr).consensus.length > 0);
    const published = publishedArtifacts(github, pr);
    expect(published.checks).toHaveLength(1);
    expect(published.checks[0]?.conclusion).toBe("neutral");
    expect(published.boards).toHaveLength(1);
    expect(published.createdBoards).toBe(1);
    expect(published.consensus).toHaveLength(1);
    expect(published.createdConsensus).toBe(1);
    expect(published.reviews.length).toBeLessThanOrEqual(1);
    expect(published.reviewPosts).toBe(published.reviews.length);
    expect(unhandledErrors(app.output())).toEqual([]);
    expect(app.process.exitCode).toBeNull();
    expect(github.validationErrors).toEqual([]);
    return {
      board: published.boards[0]?.body ?? "",
      consensus: published.consensus[0]?.body ?? "",
      title: published.checks[0]?.output.title ?? "",
      reviews: published.reviews,
    };
  };

  /** One model's lens failed: ⚠️ with its reason on the board, partial in the consensus and the check. */
  const partial = async (tag: string, failedModel: string, reason: RegExp) => {
    const ended = await endedOnce(tag);
    const line = boardLensLine(ended.board, failedModel, "security") ?? "";
    expect(line).toMatch(/^- ⚠️ \*\*security\*\* — /);
    expect(line).toMatch(reason);
    const provider = PROVIDER_OF[failedModel] ?? "";
    expect(ended.board).toContain(`#### \`${failedModel}\` · ${provider} — ⚠️ failed`);
    expect(ended.consensus).toContain("⚠️ Partial review: 1 of 2 lens reviews did not complete");
    // Its per-model verdict is not a clean one.
    expect(ended.consensus).toContain(`<b>${failedModel}</b> (${provider}) — no lens completed`);
    expect(ended.consensus).toMatch(new RegExp(`\\*\\*Not completed:\\*\\* .*${reason.source}`));
    expect(ended.title).toContain(PARTIAL);
    return { ...ended, line };
  };

  it("a model that hangs past timeoutSeconds fails its lens as timed out", async () => {
    await outcomes.check("model hangs past timeoutSeconds", async () => {
      const { line, title } = await partial("[hang]", OLLAMA_MODEL, /timed out/);
      // The tool turn and the final turn, each cut off by its deadline; no retry of a timeout.
      expect(router.calls("[hang]").get(`${OLLAMA_MODEL}/security`)).toBe(2);
      // Both hung calls were aborted by the app, not left open.
      expect(stack.ollama.closedBeforeReply).toBeGreaterThanOrEqual(2);
      return `lens failed: ${line.slice(2)} · check "${title}"`;
    });
  });

  it("a model answering 500 every time fails its lens after three attempts", async () => {
    await outcomes.check("model returns 500 (three times)", async () => {
      const { line, title } = await partial("[http-500]", OPENAI_MODEL, /500/);
      expect(router.calls("[http-500]").get(`${OPENAI_MODEL}/security`)).toBeGreaterThanOrEqual(3);
      return `lens failed: ${line.slice(2)} · check "${title}"`;
    });
  });

  it("a 429 with Retry-After: 1 is waited out, and the lens completes", async () => {
    await outcomes.check("model returns 429 + Retry-After: 1, then answers", async () => {
      const ended = await endedOnce("[rate-429]");
      expect(rateLimitedCalls.length).toBeGreaterThanOrEqual(2);
      const [first = 0, second = 0] = rateLimitedCalls;
      expect(second - first).toBeGreaterThanOrEqual(900);
      expect(boardLensLine(ended.board, OPENAI_MODEL, "security")).toMatch(/^- ✅ /);
      expect(ended.consensus).not.toContain("Partial review");
      // Both models found the leak: the rate-limited one's answer counts.
      expect(ended.consensus).toContain("2/2");
      expect(ended.title).not.toContain("partial");
      expect(ended.reviews[0]?.comments).toHaveLength(1);
      return `lens completed after a ${second - first} ms wait · finding agreed 2/2 · check "${ended.title}"`;
    });
  });

  it("garbage from one model and an empty answer from the other: no model completed, said so", async () => {
    let ended = { board: "", consensus: "", title: "", reviews: [] as unknown[] };
    const calls = () => router.calls("[garbage-empty]");
    await outcomes.check(
      "model answers garbage (no findings block, even after repair)",
      async () => {
        ended = await endedOnce("[garbage-empty]");
        const line = boardLensLine(ended.board, OPENAI_MODEL, "security") ?? "";
        expect(line).toMatch(/^- ⚠️ \*\*security\*\* — no findings block after a repair turn/);
        // The answer and one repair turn.
        expect(calls().get(`${OPENAI_MODEL}/security`)).toBe(2);
        return `lens failed: ${line.slice(2)}`;
      },
    );
    await outcomes.check("model answers empty text", () => {
      const line = boardLensLine(ended.board, OLLAMA_MODEL, "security") ?? "";
      expect(line).toMatch(/^- ⚠️ \*\*security\*\* — /);
      expect(calls().get(`${OLLAMA_MODEL}/security`)).toBe(2);
      expect(ended.consensus).toContain("no model completed its review");
      expect(ended.consensus).not.toContain("No material issues found");
      expect(ended.title).toBe("No model completed the review");
      expect(ended.reviews).toEqual([]);
      return `lens failed: ${line.slice(2)} · consensus "no model completed" · check "${ended.title}"`;
    });
  });

  it("a tool loop that never ends stops at maxTurns, then gets one turn without tools", async () => {
    await outcomes.check("model calls tools forever", async () => {
      const { line, title } = await partial("[tool-loop]", OLLAMA_MODEL, /no findings block/);
      const calls = router.calls("[tool-loop]");
      // maxTurns tool turns, then the final turn without tools, where the OpenAI model answers.
      expect(calls.get(`${OPENAI_MODEL}/security`)).toBe(MAX_TURNS + 1);
      const ended = publishedArtifacts(stack.github, pull("[tool-loop]"));
      expect(boardLensLine(ended.boards[0]?.body ?? "", OPENAI_MODEL, "security")).toMatch(
        /^- ✅ /,
      );
      // The Ollama model also ignores the final turn and the repair turn.
      expect(calls.get(`${OLLAMA_MODEL}/security`)).toBe(MAX_TURNS + 2);
      return `${OPENAI_MODEL} answered in the final turn (${MAX_TURNS + 1} calls) · ${OLLAMA_MODEL} failed: ${line.slice(2)} · check "${title}"`;
    });
  });
});
