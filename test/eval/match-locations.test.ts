import { describe, expect, it } from "vitest";
import type { GoldComment } from "../../src/eval/index.js";
import { matchesLocation, matchLocations } from "../../src/eval/index.js";

const gold = (
  path: string,
  fromLine: number,
  toLine = fromLine,
  side: "left" | "right" = "right",
): GoldComment => ({
  path,
  side,
  fromLine,
  toLine,
  category: null,
});

describe("matchesLocation", () => {
  const range = gold("src/a.ts", 10, 12);
  it.each([
    [7, true],
    [6, false],
    [10, true],
    [12, true],
    [15, true],
    [16, false],
  ])("line %i against 10-12, window 3: %s", (line, expected) => {
    expect(matchesLocation({ path: "src/a.ts", line }, range, 3)).toBe(expected);
  });

  it("needs the same path, exactly", () => {
    expect(matchesLocation({ path: "src/b.ts", line: 11 }, range, 3)).toBe(false);
    expect(matchesLocation({ path: "a.ts", line: 11 }, range, 3)).toBe(false);
    expect(matchesLocation({ path: "lib/src/a.ts", line: 11 }, range, 3)).toBe(false);
    expect(matchesLocation({ path: "SRC/a.ts", line: 11 }, range, 3)).toBe(false);
  });

  it("window 0 is the range itself", () => {
    expect(matchesLocation({ path: "src/a.ts", line: 9 }, range, 0)).toBe(false);
    expect(matchesLocation({ path: "src/a.ts", line: 10 }, range, 0)).toBe(true);
  });

  it("a gold comment on the base side matches no head-side finding", () => {
    expect(matchesLocation({ path: "src/a.ts", line: 5 }, gold("src/a.ts", 5, 5, "left"), 3)).toBe(
      false,
    );
  });
});

describe("matchLocations", () => {
  it("counts two findings on one gold comment once: the second is a false positive", () => {
    const found = [
      { path: "src/a.ts", line: 10 },
      { path: "src/a.ts", line: 11 },
    ];
    expect(matchLocations(found, [gold("src/a.ts", 10)], 3)).toEqual({
      matched: 1,
      found: 2,
      gold: 1,
    });
  });

  it("pairs so the most gold comments are found (not greedily first come)", () => {
    // The finding on 19 could take either gold comment; taking 21 (listed first) would leave the
    // finding on 23 nothing.
    const found = [
      { path: "src/a.ts", line: 19 },
      { path: "src/a.ts", line: 23 },
    ];
    expect(matchLocations(found, [gold("src/a.ts", 21), gold("src/a.ts", 17)], 2).matched).toBe(2);
  });

  it("one finding never covers two gold comments", () => {
    expect(
      matchLocations(
        [{ path: "src/a.ts", line: 5 }],
        [gold("src/a.ts", 4), gold("src/a.ts", 6)],
        3,
      ),
    ).toEqual({
      matched: 1,
      found: 1,
      gold: 2,
    });
  });
});
