import { describe, expect, it } from "vitest";
import type { PreviousFinding } from "../../src/consensus/consensus.js";
import { parsePatch } from "../../src/diff/parse-patch.js";
import { planCarry } from "../../src/run/plan-carry.js";

const detail = {
  endLine: 12,
  models: ["m"],
  lens: "security",
  confidence: "high" as const,
  body: "",
};
const at = (file: string, line: number, withDetail = true): PreviousFinding => ({
  fingerprint: `${file}:${line}`,
  title: "t",
  file,
  line,
  severity: "high",
  ...(withDetail ? { detail: { ...detail, endLine: line + 2 } } : {}),
});
// The push added two lines after old line 2 and changed old line 30 of src/a.js.
const stepA = parsePatch("src/a.js", "@@ -2 +2,3 @@\n two\n+x\n+y\n@@ -30 +32 @@\n-old\n+new", {
  status: "modified",
});
const scope = { kind: "incremental" as const, since: "abc", files: [stepA] };
const pull = new Set(["src/a.js", "src/b.js", "src/big.js"]);

describe("planCarry", () => {
  it("carries a finding in an untouched file at its lines, and one below the push's lines moved", () => {
    expect(planCarry([at("src/b.js", 7), at("src/a.js", 10)], scope, pull)).toEqual({
      carry: [
        { fingerprint: "src/b.js:7", line: 7, endLine: 9 },
        { fingerprint: "src/a.js:10", line: 12, endLine: 14 },
      ],
      recheck: [],
    });
  });

  it("re-checks a finding whose lines the push touched, at its old lines", () => {
    const touched = at("src/a.js", 29);
    expect(planCarry([touched], scope, pull)).toEqual({
      carry: [],
      recheck: [{ finding: touched, line: 29, endLine: 31 }],
    });
  });

  it("re-checks every finding of a file shown by its whole-PR patch: its lines cannot be followed", () => {
    const big = parsePatch("src/big.js", "@@ -1 +1 @@\n-a\n+b", { status: "modified" });
    const finding = at("src/big.js", 40);
    expect(
      planCarry([finding], { ...scope, files: [big], wholePatch: ["src/big.js"] }, pull).recheck,
    ).toEqual([{ finding, line: 40, endLine: 42 }]);
  });

  it("follows a file the step moved: its finding is re-checked at the new path, not fixed", () => {
    const moved = parsePatch("src/vendor/q.js", "", {
      status: "renamed",
      previousPath: "src/q.js",
    });
    const finding = at("src/q.js", 5);
    const plan = planCarry(
      [finding],
      { kind: "incremental", since: "abc", files: [moved] },
      new Set(["src/vendor/q.js"]),
    );
    expect(plan).toEqual({
      carry: [],
      recheck: [{ finding, file: "src/vendor/q.js", line: 5, endLine: 7 }],
    });
  });

  it("leaves out a finding without stored detail, or in a file the PR no longer changes", () => {
    expect(planCarry([at("src/b.js", 7, false), at("src/gone.js", 3)], scope, pull)).toEqual({
      carry: [],
      recheck: [],
    });
  });
});
