import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKERS } from "../../src/render/markers.js";
import { FORK_SKIP_REASON } from "../../src/run/fork-rule.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
import {
  ROOT,
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { routeReviews } from "./route-reviews.js";

const REPO = { owner: "octo-org", repo: "widgets" };
const FAKE_AGENT = join(ROOT, "test/fakes/fake-agent-cli.mjs");

/**
 * An agent CLI as Gadfly would start it: a shell that first appends a line to `marker`
 * (so the test sees every start, whatever the CLI then does), then the fake agent CLI
 * answering with a Claude Code transcript.
 */
function agentCommand(marker: string): string {
  const script = `echo started >> '${marker}'; exec '${process.execPath}' '${FAKE_AGENT}' --mode claude-stream`;
  return JSON.stringify(["/bin/sh", "-c", script]);
}

async function startsOf(marker: string): Promise<number> {
  const text = await readFile(marker, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line === "started").length;
}

/**
 * Agent CLIs and pull requests from forks, against the running app: below the bubblewrap
 * level (the config names `none`, so this holds on any machine), an agent CLI reviews a
 * fork's PR only when its provider says `allowForks: true`; the others' lenses are shown
 * skipped and their CLI is never started. A chat model always reviews.
 */
describe("fork pull requests and agent CLIs", { timeout: 60_000 }, () => {
  let stack: Stack;
  let app: RunningApp;
  let guardedMarker: string;
  let trustedMarker: string;

  const own = (pr: PullRequestSnapshot, marker: string) =>
    stack.github
      .comments(pr)
      .filter((comment) => comment.user.login === "gadfly[bot]" && comment.body.startsWith(marker));
  const completed = (sha: string) =>
    stack.github.checkRuns(sha).filter((check) => check.status === "completed");
  /** Opens the PR and waits for its round to publish everything. */
  const reviewed = async (pr: PullRequestSnapshot) => {
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(() => completed(pr.headSha).length === 1, 40_000);
    await waitFor(() => own(pr, MARKERS.consensus).length === 1);
    const board = own(pr, MARKERS.statusBoard)[0]?.body ?? "";
    const consensus = own(pr, MARKERS.consensus)[0]?.body ?? "";
    return { board, consensus, check: completed(pr.headSha)[0] };
  };
  /** Every body the PR's status board was posted or edited with, in order. */
  const boardVersions = (pr: PullRequestSnapshot): string[] => {
    const boardId = own(pr, MARKERS.statusBoard)[0]?.id;
    const paths = [
      `/repos/${REPO.owner}/${REPO.repo}/issues/${pr.number}/comments`,
      `/repos/${REPO.owner}/${REPO.repo}/issues/comments/${boardId}`,
    ];
    return stack.github.requests().flatMap((request) => {
      const body = (request.body as { body?: unknown } | null)?.body;
      return paths.includes(request.path) &&
        typeof body === "string" &&
        body.startsWith(MARKERS.statusBoard)
        ? [body]
        : [];
    });
  };

  beforeAll(async () => {
    stack = await startStack({ models: [{ id: "gpt-a", provider: "openai" }] });
    routeReviews(stack, { "[fork]": {}, "[same-repo]": {} });
    guardedMarker = join(stack.dir, "guarded-cli-started");
    trustedMarker = join(stack.dir, "trusted-cli-started");
    await writeFile(
      stack.configPath,
      [
        "providers:",
        "  - name: openai",
        "    type: openai",
        `    baseURL: ${stack.openai.url}/v1`,
        "    apiKeyEnv: E2E_OPENAI_KEY",
        "  - name: guarded-cli",
        "    type: command",
        `    command: ${agentCommand(guardedMarker)}`,
        "  - name: trusted-cli",
        "    type: command",
        `    command: ${agentCommand(trustedMarker)}`,
        "    allowForks: true",
        "models:",
        '  - { id: "gpt-a", provider: openai }',
        '  - { id: "guarded-agent", provider: guarded-cli }',
        '  - { id: "trusted-agent", provider: trusted-cli }',
        "review:",
        "  concurrency: 8",
        "  maxTurns: 6",
        "  timeoutSeconds: 60",
        "  debounceSeconds: 0",
        "sandbox:",
        "  isolation: none",
        // One summary call more per round: off, as the harness has it, for the scripted counts.
        "summary: false",
        "",
      ].join("\n"),
    );
    stack.github.addRepo({
      owner: REPO.owner,
      name: REPO.repo,
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security]\n" },
    });
    stack.github.addRepo({
      owner: REPO.owner,
      name: "cli-only",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "models: [guarded-agent]\nlenses: [security]\n" },
    });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await stack?.close();
  });

  it("skips the agent CLI without allowForks on a fork's PR, never starting it; the others review", async () => {
    const pr = stack.github.addPullRequest({
      ...REPO,
      title: "Tidy the loader [fork]",
      headRepository: { owner: "mallory", name: "widgets" },
      files: [{ path: "src/loader.js", base: "a\n", head: "b\n" }],
    });
    const { board, consensus, check } = await reviewed(pr);

    expect(await startsOf(guardedMarker)).toBe(0);
    expect(board).toContain("#### `guarded-agent` · guarded-cli — ⏭️ skipped");
    expect(board).toContain(`- ⏭️ **security** — skipped: ${FORK_SKIP_REASON}`);
    expect(board).toContain("#### `gpt-a` · openai — ✅ done");
    expect(board).toContain("#### `trusted-agent` · trusted-cli — ✅ done");
    expect(board).toContain("3/3 reviewers finished");
    expect(await startsOf(trustedMarker)).toBeGreaterThan(0);
    // Shown skipped from the board's first version on: never queued, never running.
    const versions = boardVersions(pr);
    expect(versions.length).toBeGreaterThan(0);
    for (const version of versions) {
      expect(version).toContain("#### `guarded-agent` · guarded-cli — ⏭️ skipped");
    }
    expect(stack.github.validationErrors).toEqual([]);

    // The two models that reviewed are the consensus; the skip is said, not hidden.
    expect(consensus).toContain("consensus across 2 models");
    expect(consensus).toContain(`- \`guarded-agent\` — skipped: ${FORK_SKIP_REASON}`);
    expect(check?.conclusion).toBe("neutral");
    expect(check?.output.title).toMatch(/\(partial: 1 of 3 lens reviews skipped\)$/);
  });

  it("runs every agent CLI on a PR whose head is in the repository itself", async () => {
    const before = await startsOf(guardedMarker);
    const pr = stack.github.addPullRequest({
      ...REPO,
      title: "Tidy the parser [same-repo]",
      files: [{ path: "src/parser.js", base: "a\n", head: "b\n" }],
    });
    const { board, consensus, check } = await reviewed(pr);

    expect(await startsOf(guardedMarker)).toBeGreaterThan(before);
    expect(board).toContain("#### `guarded-agent` · guarded-cli — ✅ done");
    expect(board).not.toContain("skipped");
    expect(consensus).toContain("consensus across 3 models");
    expect(check?.output.title).not.toContain("partial");
  });

  it("never reads as clean when every model the repository chose was skipped", async () => {
    const pr = stack.github.addPullRequest({
      owner: REPO.owner,
      repo: "cli-only",
      title: "Only the agent CLI [fork]",
      headRepository: { owner: "mallory", name: "cli-only" },
      files: [{ path: "src/only.js", base: "a\n", head: "b\n" }],
    });
    const before = await startsOf(guardedMarker);
    const { board, consensus, check } = await reviewed(pr);

    expect(await startsOf(guardedMarker)).toBe(before);
    expect(board).toContain("#### `guarded-agent` · guarded-cli — ⏭️ skipped");
    expect(board).not.toContain("Every changed file was reviewed.");
    const summary = consensus.slice(0, consensus.indexOf("<details>"));
    expect(summary).toContain("**Verdict: none**");
    expect(summary).not.toContain("No material issues found");
    expect(summary).toContain(`- \`guarded-agent\` — skipped: ${FORK_SKIP_REASON}`);
    expect(check?.output.title).toBe("No model completed the review");
    expect(check?.output.summary).not.toContain("No material issues found");
    // Nothing reviewed, nothing to say inline.
    expect(stack.github.reviews(pr)).toEqual([]);
  });
});
