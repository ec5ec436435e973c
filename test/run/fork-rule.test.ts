import { describe, expect, it } from "vitest";
import type { ModelConfig } from "../../src/config/schema.js";
import { ProviderConfig } from "../../src/config/schema.js";
import {
  isForkPullRequest,
  type PullRequestRepositories,
} from "../../src/github/is-fork-pull-request.js";
import { FORK_SKIP_REASON, modelsSkippedForFork } from "../../src/run/fork-rule.js";
import type { IsolationLevel } from "../../src/sandbox/index.js";

// Parsed like the app config, so allowForks takes its real default.
const providers = [
  ProviderConfig.parse({ name: "chat", type: "openai", baseURL: "http://127.0.0.1:9/v1" }),
  ProviderConfig.parse({ name: "claude-code", type: "command", command: ["claude", "-p"] }),
  ProviderConfig.parse({
    name: "trusted-cli",
    type: "command",
    command: ["codex", "exec"],
    allowForks: true,
  }),
];
const models: ModelConfig[] = [
  { id: "gpt", provider: "chat" },
  { id: "claude-code/opus", provider: "claude-code", model: "opus" },
  { id: "claude-code/sonnet", provider: "claude-code", model: "sonnet" },
  { id: "codex", provider: "trusted-cli" },
];

function skipped(fromFork: boolean, isolation: IsolationLevel): [string, string][] {
  return [...modelsSkippedForFork({ fromFork, models, providers, isolation })];
}

describe("modelsSkippedForFork", () => {
  it("keeps every agent CLI without allowForks from a fork's PR below the bubblewrap level", () => {
    for (const isolation of ["user", "none"] as const) {
      expect(skipped(true, isolation)).toEqual([
        ["claude-code/opus", FORK_SKIP_REASON],
        ["claude-code/sonnet", FORK_SKIP_REASON],
      ]);
    }
    expect(FORK_SKIP_REASON).toBe("agent CLIs do not review fork PRs here");
  });

  it("lets every model review a fork's PR under bubblewrap", () => {
    expect(skipped(true, "bwrap")).toEqual([]);
  });

  it("never skips a PR whose head is in the base repository, whatever the level", () => {
    for (const isolation of ["bwrap", "user", "none"] as const) {
      expect(skipped(false, isolation)).toEqual([]);
    }
  });

  it("reads allowForks as off when the config does not say", () => {
    const provider = providers[1];
    expect(provider?.type === "command" && provider.allowForks).toBe(false);
  });
});

function pull(
  head: { id: number; full_name: string } | null,
  base = { id: 1, full_name: "octo-org/widgets" },
): PullRequestRepositories {
  return { head: { repo: head }, base: { repo: base } };
}

describe("isForkPullRequest", () => {
  it("is false when the head branch lives in the base repository", () => {
    expect(isForkPullRequest(pull({ id: 1, full_name: "octo-org/widgets" }))).toBe(false);
    // GitHub's names are case-insensitive: the same repository in another spelling.
    expect(isForkPullRequest(pull({ id: 1, full_name: "Octo-Org/Widgets" }))).toBe(false);
  });

  it("is true for a head in another repository, by name or by id", () => {
    expect(isForkPullRequest(pull({ id: 2, full_name: "mallory/widgets" }))).toBe(true);
    expect(isForkPullRequest(pull({ id: 2, full_name: "octo-org/widgets" }))).toBe(true);
    expect(isForkPullRequest(pull({ id: 1, full_name: "mallory/widgets" }))).toBe(true);
  });

  it("is true when the fork was deleted (GitHub then shows a null head repository)", () => {
    expect(isForkPullRequest(pull(null))).toBe(true);
  });
});
