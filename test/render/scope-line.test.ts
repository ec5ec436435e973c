import { describe, expect, it } from "vitest";
import { renderStatusBoard } from "../../src/render/index.js";
import { scopeLine } from "../../src/render/scope-line.js";
import type { RoundStatus } from "../../src/run/round-status.js";

const status = (scope: RoundStatus["scope"]): RoundStatus => ({
  headSha: "0123456789abcdef",
  round: 2,
  updatedAt: new Date("2026-11-30T00:00:00Z"),
  reviewers: [],
  notReviewed: [],
  finished: false,
  ...(scope === undefined ? {} : { scope }),
});

describe("the board's scope line", () => {
  it.each([
    [
      { kind: "incremental", since: "abc1234ffff", files: 3 },
      "🔁 Incremental: 3 files since `abc1234` (the last reviewed head; earlier rounds reviewed the rest)",
    ],
    [
      { kind: "incremental", since: "abc1234ffff", files: 1 },
      "🔁 Incremental: 1 file since `abc1234`",
    ],
    [
      { kind: "full", reason: "not-ancestor", since: "abc1234ffff" },
      "🔎 Full review: previous head `abc1234` is not an ancestor of this one (force-push or rebase)",
    ],
    [
      { kind: "full", reason: "requested", since: "abc1234ffff" },
      "🔎 Full review: asked for by a comment\n",
    ],
    [
      { kind: "full", reason: "no-change", since: "abc1234ffff" },
      "🔎 Full review: nothing changed since the last reviewed head",
    ],
    [
      { kind: "full", reason: "too-large", since: "abc1234ffff" },
      "🔎 Full review: GitHub lists the change since `abc1234` only in part",
    ],
    [
      { kind: "full", reason: "unavailable", since: "abc1234ffff" },
      "🔎 Full review: GitHub could not give the change since `abc1234`\n",
    ],
    [
      { kind: "full", reason: "previous-partial", since: "abc1234ffff" },
      "🔎 Full review: a lens of the round at `abc1234` did not finish, so what it was to review is reviewed now\n",
    ],
    [
      { kind: "full", reason: "base-changed", since: "abc1234ffff" },
      "🔎 Full review: the pull request's base is not the one `abc1234` was reviewed against\n",
    ],
  ] as const)("%j", (scope, want) => {
    expect(renderStatusBoard(status(scope), { lenses: {} })).toContain(want);
  });

  it("says nothing on a first round or before the scope is known", () => {
    expect(scopeLine({ kind: "full", reason: "first-round" })).toBeNull();
    const first = renderStatusBoard(status({ kind: "full", reason: "first-round" }), {
      lenses: {},
    });
    expect(first).not.toMatch(/Full review|Incremental/);
    expect(renderStatusBoard(status(undefined), { lenses: {} })).not.toMatch(
      /Full review|Incremental/,
    );
  });
});
