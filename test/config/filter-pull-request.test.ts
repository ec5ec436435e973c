import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import {
  type FilteredPullRequest,
  filterPullRequest,
} from "../../src/config/filter-pull-request.js";
import { matchTitlePattern, TITLE_MATCH_CHARS } from "../../src/config/match-title-pattern.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { RepoConfig, type RepoFilters } from "../../src/config/repo-config-schema.js";

const SOURCE = ".github/gadfly.yml";

const filtersOf = (yaml: string): RepoFilters => parseConfigText(SOURCE, yaml, RepoConfig).filters;
const DEFAULTS = filtersOf("{}\n");

const pull = (overrides: Partial<FilteredPullRequest> = {}): FilteredPullRequest => ({
  author: "octocat",
  labels: [],
  title: "Add a retry to the uploader",
  baseRef: "main",
  changedFiles: 3,
  changedLines: 40,
  ...overrides,
});

/** The field a bad config names, or null when it parses. */
function badField(yaml: string): string | null {
  try {
    parseConfigText(SOURCE, yaml, RepoConfig);
    return null;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.issues.map((issue) => issue.path).join(" ");
  }
}

describe("filterPullRequest", () => {
  it("reviews an ordinary pull request under the defaults", () => {
    expect(filterPullRequest(DEFAULTS, pull())).toEqual({ kind: "review" });
  });

  it("skips dependabot and renovate by default, any case, and reviews them when reviewBots is on", () => {
    for (const author of ["dependabot[bot]", "Renovate[bot]"]) {
      const decision = filterPullRequest(DEFAULTS, pull({ author }));
      expect(decision).toEqual({
        kind: "skip",
        reason: `author ${author} is a bot skipped by default (filters.reviewBots)`,
      });
    }
    // A login that only resembles a default bot is a person.
    expect(filterPullRequest(DEFAULTS, pull({ author: "dependabot" })).kind).toBe("review");
    const bots = filtersOf("filters:\n  reviewBots: true\n");
    expect(filterPullRequest(bots, pull({ author: "dependabot[bot]" })).kind).toBe("review");
  });

  it("skips the configured authors besides the default bots", () => {
    const filters = filtersOf('filters:\n  skipAuthors: [release-bot, "Mergify[bot]"]\n');
    expect(filterPullRequest(filters, pull({ author: "mergify[bot]" }))).toEqual({
      kind: "skip",
      reason: "author mergify[bot] is skipped (filters.skipAuthors)",
    });
    expect(filterPullRequest(filters, pull({ author: "renovate[bot]" })).kind).toBe("skip");
    expect(filterPullRequest(filters, pull({ author: "release-bot-2" })).kind).toBe("review");
  });

  it("skips a label, case-insensitively, and with onlyLabels reviews only the labelled", () => {
    const skip = filtersOf("filters:\n  skipLabels: [no-review]\n");
    expect(filterPullRequest(skip, pull({ labels: ["bug", "No-Review"] }))).toEqual({
      kind: "skip",
      reason: 'label "no-review" is skipped (filters.skipLabels)',
    });
    expect(filterPullRequest(skip, pull({ labels: ["no-reviewer"] })).kind).toBe("review");
    const only = filtersOf("filters:\n  onlyLabels: [needs-review, security]\n");
    expect(filterPullRequest(only, pull({ labels: ["Security"] })).kind).toBe("review");
    expect(filterPullRequest(only, pull({ labels: [] }))).toEqual({
      kind: "skip",
      reason: "none of the labels filters.onlyLabels asks for (needs-review, security)",
    });
  });

  it("skips the default titles: WIP, [WIP], Draft:, DO NOT MERGE, [skip review]…", () => {
    const skipped = [
      "WIP: new parser",
      "  wip new parser",
      "[WIP] new parser",
      "Draft: new parser",
      "DO NOT MERGE — experiment",
      "Bump lodash [skip review]",
      "Bump lodash [No Review]",
      "Bump lodash [skip gadfly]",
    ];
    for (const title of skipped) {
      expect(filterPullRequest(DEFAULTS, pull({ title })).kind, title).toBe("skip");
    }
    expect(filterPullRequest(DEFAULTS, pull({ title: "WIP: x" }))).toEqual({
      kind: "skip",
      reason: 'title matches "^WIP" (filters.skipTitles)',
    });
    // Words that only contain the pattern, and the pattern not at the start, are reviewed.
    for (const title of ["WIPE the cache", "Fix WIP handling in the board", "Drafting rules"]) {
      expect(filterPullRequest(DEFAULTS, pull({ title })).kind, title).toBe("review");
    }
  });

  it("replaces the default titles with the configured ones; an empty list skips no title", () => {
    const own = filtersOf('filters:\n  skipTitles: ["chore(deps)"]\n');
    expect(filterPullRequest(own, pull({ title: "chore(deps): bump x" })).kind).toBe("skip");
    expect(filterPullRequest(own, pull({ title: "WIP: x" })).kind).toBe("review");
    // A word pattern matches whole words only, on both sides.
    const word = filtersOf("filters:\n  skipTitles: [deps]\n");
    expect(filterPullRequest(word, pull({ title: "Bump deps" })).kind).toBe("skip");
    expect(filterPullRequest(word, pull({ title: "Bump subdeps" })).kind).toBe("review");
    expect(filterPullRequest(word, pull({ title: "Bump depsolver" })).kind).toBe("review");
    const none = filtersOf("filters:\n  skipTitles: []\n");
    expect(filterPullRequest(none, pull({ title: "WIP [skip review]" })).kind).toBe("review");
  });

  it("filters base branches with the safe globs", () => {
    const only = filtersOf('filters:\n  baseBranches: [main, "release/*"]\n');
    expect(filterPullRequest(only, pull({ baseRef: "release/2.1" })).kind).toBe("review");
    expect(filterPullRequest(only, pull({ baseRef: "feature/x" }))).toEqual({
      kind: "skip",
      reason: "base branch feature/x is not among filters.baseBranches",
    });
    const skip = filtersOf('filters:\n  skipBaseBranches: ["gh-pages", "experiments/**"]\n');
    expect(filterPullRequest(skip, pull({ baseRef: "experiments/a/b" }))).toEqual({
      kind: "skip",
      reason: "base branch experiments/a/b is skipped (filters.skipBaseBranches)",
    });
    expect(filterPullRequest(skip, pull({ baseRef: "main" })).kind).toBe("review");
  });

  it("asks to split a pull request over maxSize (files or lines), not at it", () => {
    const capped = filtersOf("filters:\n  maxSize: { files: 50, changedLines: 2000 }\n");
    expect(filterPullRequest(capped, pull({ changedFiles: 50, changedLines: 2000 })).kind).toBe(
      "review",
    );
    expect(filterPullRequest(capped, pull({ changedFiles: 51 }))).toEqual({
      kind: "split",
      reason: "the pull request is too large to review: 51 files (over 50)",
    });
    expect(filterPullRequest(capped, pull({ changedFiles: 120, changedLines: 4321 }))).toEqual({
      kind: "split",
      reason:
        "the pull request is too large to review: 120 files (over 50), 4,321 changed lines (over 2,000)",
    });
  });

  it("reviews a pull request over maxSize when the cap downshifts it: the plan narrows, not the filter", () => {
    const downshift = filtersOf(
      "filters:\n  maxSize: { files: 50, over: downshift, lenses: [security] }\n",
    );
    expect(filterPullRequest(downshift, pull({ changedFiles: 500 })).kind).toBe("review");
  });

  it("gives the first reason in a fixed order: author, labels, title, base, size", () => {
    const filters = filtersOf(
      "filters:\n  skipLabels: [skip]\n  skipBaseBranches: [old]\n  maxSize: { files: 1 }\n",
    );
    const everything = pull({
      author: "dependabot[bot]",
      labels: ["skip"],
      title: "WIP",
      baseRef: "old",
      changedFiles: 9,
    });
    expect(filterPullRequest(filters, everything)).toMatchObject({ reason: /^author / });
    expect(filterPullRequest(filters, { ...everything, author: "a" })).toMatchObject({
      reason: /^label /,
    });
    expect(filterPullRequest(filters, { ...everything, author: "a", labels: [] })).toMatchObject({
      reason: /^title /,
    });
  });
});

describe("the filters' config", () => {
  it("names the bad field", () => {
    expect(badField("filters:\n  skipAuthor: [x]\n")).toBe("filters");
    expect(badField("filters:\n  skipTitles: [123, '^']\n")).toBe(
      "filters.skipTitles[0] filters.skipTitles[1]",
    );
    expect(badField("filters:\n  baseBranches: ['+(a|b)']\n")).toBe("filters.baseBranches[0]");
    expect(badField("filters:\n  maxSize: {}\n")).toBe("filters.maxSize");
    expect(badField("filters:\n  maxSize: { files: 3, over: downshift }\n")).toBe(
      "filters.maxSize",
    );
    expect(badField("filters:\n  maxSize: { files: 3, lenses: [security] }\n")).toBe(
      "filters.maxSize",
    );
    expect(
      badField("filters:\n  maxSize: { files: 3, over: downshift, lenses: [security] }\n"),
    ).toBeNull();
    expect(badField("filters:\n  maxSize: { files: 3, over: shrink }\n")).toBe(
      "filters.maxSize.over",
    );
    expect(badField("filters:\n  maxSize: { files: 0 }\n")).toBe("filters.maxSize.files");
    expect(badField(`filters:\n  skipLabels: [${Array(51).fill("x").join(", ")}]\n`)).toBe(
      "filters.skipLabels",
    );
    expect(badField(`filters:\n  skipTitles: ["${"x".repeat(101)}"]\n`)).toBe(
      "filters.skipTitles[0]",
    );
  });
});

describe("matchTitlePattern", () => {
  it("matches literally: a pattern's regex characters are text", () => {
    expect(matchTitlePattern("fix a.b", "a.b")).toBe(true);
    expect(matchTitlePattern("fix axb", "a.b")).toBe(false);
    expect(matchTitlePattern("(a+)+$ title", "(a+)+$")).toBe(true);
    expect(matchTitlePattern("x", "^")).toBe(false);
  });

  it("reads only the first TITLE_MATCH_CHARS of a hostile title, quickly", () => {
    expect(TITLE_MATCH_CHARS).toBe(1024);
    const hostile = `${"a".repeat(TITLE_MATCH_CHARS)}[skip review]`;
    expect(matchTitlePattern(hostile, "[skip review]")).toBe(false);
    expect(
      matchTitlePattern(`${"a".repeat(TITLE_MATCH_CHARS - 13)}[skip review]`, "[skip review]"),
    ).toBe(true);
    // A title of one repeated character against a pattern one short of it: every position is
    // tried, and the work is bounded by 1024 × 100 character comparisons.
    const aaa = "a".repeat(1_000_000);
    expect(matchTitlePattern(aaa, `${"a".repeat(99)}b`)).toBe(false);
  });
});
