import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { IGNORE_MATCH_STEPS, ignoreMatcher } from "../../src/config/ignore-matcher.js";
import { REPO_CONFIG_LIMITS } from "../../src/config/repo-config-limits.js";
import { compileSafeGlob, MAX_GLOB_ALTERNATIVES } from "../../src/config/safe-glob.js";
import { report } from "../helpers/report.js";

const compile = (glob: string) => {
  const compiled = compileSafeGlob(glob);
  if (!compiled.ok) throw new Error(`${glob}: ${compiled.problem}`);
  return compiled;
};
const problem = (glob: string) => {
  const compiled = compileSafeGlob(glob);
  return compiled.ok ? "accepted" : compiled.problem;
};

describe("compileSafeGlob: the subset, with picomatch's meaning", () => {
  // picomatch (dot: true) is what `ignore:` meant before: configs that worked keep working.
  const globs = [
    "docs/**",
    "**/*.snap",
    "*.md",
    "src/**/*.ts",
    "a/**/b",
    "**",
    "{src,lib}/**",
    "*.{js,ts}",
    "[a-c]*.txt",
    "[^a]*",
    "a**b",
    "**/test/**",
    "?.js",
    "**/.env*",
    "a/*/b",
    "x/**/y/**/z",
    "\\*.md",
    "[]]x",
    "a-b/*.c",
    "dist/**/*.min.{js,css}",
    "**/__snapshots__/**",
    "ünï/*.cødé",
  ];
  const paths = [
    "docs",
    "docs/a.md",
    "docs/a/b.md",
    "a.snap",
    "x/y/z.snap",
    "README.md",
    "x/README.md",
    "src/a.ts",
    "src/x/y/a.ts",
    "src/a.js",
    "a/b",
    "a/x/b",
    "a/x/y/b",
    "ab",
    "lib/x",
    "src",
    "a.js",
    "b.ts",
    "b.txt",
    "d.txt",
    "aXXb",
    "a/b/test/c",
    "test/x",
    ".env",
    ".env.local",
    "x/.env.prod",
    "a/c/b",
    "x/y/z",
    "x/1/y/2/z",
    "*.md",
    "]x",
    "a-b/q.c",
    "abc.txt",
    "bob",
    "dist/x/app.min.js",
    "dist/app.min.css",
    "src/__snapshots__/a.snap",
    "ünï/x.cødé",
  ];
  it.each(globs)("%s matches what picomatch matches", (glob) => {
    const ours = compile(glob);
    const theirs = picomatch(glob, { dot: true });
    const disagreements = paths.filter((path) => ours.matches(path) !== theirs(path));
    expect(disagreements).toEqual([]);
  });

  it("takes `?` as one character, where picomatch takes half of an astral one", () => {
    expect(compile("?.js").matches("😀.js")).toBe(true);
    expect(compile("[😀-😂].js").matches("😁.js")).toBe(true);
  });

  it("reads [!…] as a negated class (POSIX), where picomatch reads a negation", () => {
    const glob = compile("[!a]*");
    expect(glob.matches("bob")).toBe(true);
    expect(glob.matches("abc")).toBe(false);
    expect(glob.matches("x/y")).toBe(false);
  });

  it.each([
    ["(a+)+b", "groups and extglobs are not supported"],
    ["+(a|b)", "groups and extglobs are not supported"],
    ["a|b", "groups and extglobs are not supported"],
    ["!docs/**", "negation"],
    ["/build/**", "drop the leading '/'"],
    ["build/", "a trailing '/'"],
    ["{a,{b,c}}", "nested braces"],
    ["{a}", "has no ','"],
    ["{a,b", "never closed"],
    ["a}", "closes no '{'"],
    ["[ab", "never closed"],
    ["[[:alpha:]]", "POSIX classes"],
    ["[z-a]", "reversed"],
    ["a\\", "escapes nothing"],
    ["{a,b}{c,d}{e,f}{g,h}", `more than ${MAX_GLOB_ALTERNATIVES} patterns`],
  ])("refuses %s with a reason", (glob, reason) => {
    expect(problem(glob)).toContain(reason);
  });

  it("matches in work linear in the path, whatever the glob", () => {
    // All `a` (with a `/` now and then where the glob crosses segments): every star and
    // globstar stays alive to the end, the input that makes a backtracking matcher exponential.
    // Each glob ends in a wildcard, so no shortcut on its last characters turns the path away.
    // Work is counted in the matcher's own steps (one per live state per character), not timed:
    // the figure is the same on every machine, however loaded.
    const segmented = (length: number) =>
      Array.from({ length }, (_, index) => (index % 17 === 16 ? "/" : "a")).join("");
    const flat = (length: number) => "a".repeat(length);
    const hostile: [string, (length: number) => string][] = [
      [`${"**/".repeat(20)}*a*a*a*a*a*a*a*a*b*`, segmented],
      [`${"*a".repeat(33)}*b*`, flat],
      [`${"*/".repeat(30)}*`, segmented],
      [`**/${"?".repeat(60)}b*`, segmented],
    ];
    const lengths = [34, 100, 1_000, 10_000];
    const figures: string[] = [];
    for (const [glob, pathOf] of hostile) {
      const compiled = compile(glob);
      const steps = lengths.map((length) => {
        const budget = { steps: Number.MAX_SAFE_INTEGER };
        expect(compiled.matchesWithin(pathOf(length), budget)).toBe(false);
        return Number.MAX_SAFE_INTEGER - budget.steps;
      });
      figures.push(
        `${glob.slice(0, 40)}… (${compiled.stateCount} states): ${lengths
          .map((length, index) => `${length} chars ${steps[index]} steps`)
          .join(", ")}`,
      );
      // The documented bound: at most one step per state per character.
      lengths.forEach((length, index) => {
        expect(steps[index]).toBeLessThanOrEqual((length + 1) * compiled.stateCount);
      });
      // Linear: 10× the path is at most about 10× the work (never 2^n).
      const [, , at1000 = 0, at10000 = 0] = steps;
      expect(at10000).toBeLessThanOrEqual(at1000 * 11);
    }
    report("safe glob work (matcher steps):", ...figures.map((figure) => `  ${figure}`));
  });

  it("bounds the whole ignore list: the worst allowed list against a 10,000-character path", () => {
    // As many states as the config allows, every one kept alive by the path.
    const globOf = (index: number) => `**/${"*a".repeat(45)}*${index}*`;
    const states = compile(globOf(0)).stateCount;
    const count = Math.floor(REPO_CONFIG_LIMITS.ignoreMatcherStates / states);
    // All different, so that none is matched twice for the price of one.
    const matcher = ignoreMatcher(Array.from({ length: count }, (_, index) => globOf(index)));
    const path = Array.from({ length: 10_000 }, (_, index) => (index % 17 === 16 ? "/" : "a")).join(
      "",
    );
    const started = performance.now();
    expect(matcher.check(path)).toBe("kept");
    const elapsed = performance.now() - started;
    console.log(
      `${count} globs × ${states} states (${count * states} of ${REPO_CONFIG_LIMITS.ignoreMatcherStates} allowed) against 10,000 characters: ${elapsed.toFixed(1)} ms, ${matcher.stepsUsed} steps`,
    );
    // The work is the path's length × the live states at most (each character advances every
    // state once): linear, where a backtracking matcher would be exponential here.
    expect(matcher.stepsUsed).toBeGreaterThan(0);
    expect(matcher.stepsUsed).toBeLessThanOrEqual(path.length * count * states);
  });

  it("bounds a whole change set: an ordinary 3,000-file change stays far below the budget, a hostile one stops at it", () => {
    const ordinaryGlobs = Array.from({ length: REPO_CONFIG_LIMITS.ignoreGlobs }, (_, index) =>
      index % 2 === 0 ? `**/*.generated${index}.ts` : `vendor${index}/**`,
    );
    const ordinary = ignoreMatcher(ordinaryGlobs);
    const ordinaryPaths = Array.from(
      { length: 3_000 },
      (_, index) => `packages/module-${index}/src/components/widgets/widget-${index}.tsx`,
    );
    for (const path of ordinaryPaths) expect(ordinary.check(path)).toBe("kept");
    expect(ordinary.check("a/b/x.generated4.ts")).toBe("ignored");
    expect(ordinary.exhausted).toBe(false);

    const heavyGlobs = Array.from({ length: 20 }, (_, index) => `**/${"*a".repeat(45)}*${index}*`);
    const hostile = ignoreMatcher(heavyGlobs);
    const longPath = Array.from({ length: 20 }, () => "a".repeat(30)).join("/");
    const started = performance.now();
    const verdicts = Array.from({ length: 3_000 }, (_, index) =>
      hostile.check(`${longPath}/${index}`),
    );
    const elapsed = performance.now() - started;
    console.log(
      `3,000 paths: ordinary globs ${ordinary.stepsUsed} steps; heaviest globs on 620-character paths stopped at ${hostile.stepsUsed} of ${IGNORE_MATCH_STEPS} steps after ${elapsed.toFixed(0)} ms`,
    );
    expect(ordinary.stepsUsed).toBeLessThan(IGNORE_MATCH_STEPS / 2);
    expect(hostile.exhausted).toBe(true);
    // The budget is spent on the first paths, each matched in full, and every path after it is
    // answered without matching: the work stops at the budget, not at the 3,000th path.
    const firstUnchecked = verdicts.indexOf("unchecked");
    expect(firstUnchecked).toBeGreaterThan(0);
    expect(verdicts.slice(0, firstUnchecked).every((verdict) => verdict === "kept")).toBe(true);
    expect(verdicts.slice(firstUnchecked).every((verdict) => verdict === "unchecked")).toBe(true);
    expect(firstUnchecked).toBeLessThan(verdicts.length / 2);
    // Past the budget a path is "unchecked", never silently kept or ignored: the caller says so
    // (prepareChangeSet lists it as not reviewed, test/run/prepare-change-set.test.ts).
    expect(hostile.check(`${longPath}/${"a".repeat(50)}0`)).toBe("unchecked");
    expect(hostile.check("a/b/x.generated4.ts")).toBe("unchecked");
  });
});
