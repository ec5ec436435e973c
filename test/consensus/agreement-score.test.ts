import { describe, expect, it } from "vitest";
import {
  agreementScore,
  FAR_LINES,
  KIND_BONUS,
  lineGap,
  NEAR_LINES,
  normalizedTitle,
  proximity,
} from "../../src/consensus/agreement-score.js";
import { findingKinds } from "../../src/consensus/problem-kind.js";
import { textProfile } from "../../src/consensus/text-profile.js";
import { textVectors } from "../../src/consensus/text-similarity.js";

const comparable = (file: string, start: number, end: number, title: string, body = "") => ({
  file,
  ranges: [{ start, end }],
  vectors: textVectors(textProfile({ title, body })),
  title: normalizedTitle(title),
  kinds: findingKinds({ title, body }),
});

describe("lineGap", () => {
  it("is 0 for overlapping ranges and the distance between the closest ends otherwise", () => {
    expect(lineGap([{ start: 10, end: 14 }], [{ start: 12, end: 20 }])).toBe(0);
    expect(lineGap([{ start: 10, end: 14 }], [{ start: 18, end: 20 }])).toBe(4);
    expect(lineGap([{ start: 30, end: 30 }], [{ start: 10, end: 12 }])).toBe(18);
  });

  it("takes the closest pair when a finding points at several places", () => {
    const referenced = [
      { start: 131, end: 131 },
      { start: 156, end: 156 },
    ];
    expect(lineGap(referenced, [{ start: 155, end: 157 }])).toBe(0);
  });
});

describe("proximity", () => {
  it("is 1 up to NEAR_LINES, decreasing up to FAR_LINES, 0 beyond", () => {
    expect(proximity(0)).toBe(1);
    expect(proximity(NEAR_LINES)).toBe(1);
    expect(proximity(NEAR_LINES + 1)).toBeLessThan(1);
    expect(proximity(FAR_LINES)).toBeLessThan(proximity(NEAR_LINES + 1));
    expect(proximity(FAR_LINES)).toBeGreaterThan(0);
    expect(proximity(FAR_LINES + 1)).toBe(0);
  });
});

describe("agreementScore", () => {
  const title = "`parseConfig` swallows the read error";

  it("is 0 across files even for the same text", () => {
    expect(agreementScore(comparable("a.ts", 5, 5, title), comparable("b.ts", 5, 5, title))).toBe(
      0,
    );
  });

  it("falls with distance and vanishes beyond FAR_LINES", () => {
    const here = comparable("a.ts", 5, 5, title);
    const near = agreementScore(here, comparable("a.ts", 6, 6, title));
    const farther = agreementScore(here, comparable("a.ts", 5 + NEAR_LINES + 8, 30, title));
    expect(near).toBeCloseTo(1, 5);
    expect(farther).toBeLessThan(near);
    expect(agreementScore(here, comparable("a.ts", 6 + FAR_LINES, 40, title))).toBe(0);
  });

  it("counts the same title at the same place as agreement, even when every word is common", () => {
    const vague = "Changed line issue";
    const a = comparable("a.ts", 2, 2, vague);
    expect(agreementScore(a, comparable("a.ts", 2, 2, "changed-line issue!"))).toBe(1);
    expect(agreementScore(a, comparable("a.ts", 2 + NEAR_LINES + 1, 30, vague))).toBeLessThan(1);
    expect(agreementScore(a, comparable("b.ts", 2, 2, vague))).toBe(0);
  });

  it("is 0 for two different kinds of defect a few lines apart, however many words they share", () => {
    const injection = comparable(
      "orders.ts",
      22,
      22,
      "SQL injection through `conn.query` in getOrders",
      "`conn.query` builds the orders query from `req.query.status` by string interpolation.",
    );
    const leak = comparable(
      "orders.ts",
      25,
      25,
      "`conn.query` failure leaks the pool connection in getOrders",
      "When `conn.query` rejects, `conn.release()` is skipped and the connection never returns to the pool.",
    );
    expect(agreementScore(injection, leak)).toBe(0);
  });

  it("adds KIND_BONUS when both titles claim the same kind in different words", () => {
    const security = comparable("upload.ts", 12, 12, "Filename pattern is vulnerable to ReDoS");
    const performance = comparable("upload.ts", 13, 13, "Catastrophic backtracking in the regex");
    const noKinds = { claim: 0, all: 0 };
    const withoutKinds = agreementScore(
      { ...security, kinds: noKinds },
      { ...performance, kinds: noKinds },
    );
    expect(agreementScore(security, performance)).toBeCloseTo(withoutKinds + KIND_BONUS, 10);
  });
});
