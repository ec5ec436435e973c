import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { columnWidth, outputWidth, wrapText } from "../../src/cli/wrap-text.js";

describe("columnWidth", () => {
  it("counts what a terminal shows: escape sequences none, emoji and CJK two, combining marks none", () => {
    expect(columnWidth("abc")).toBe(3);
    expect(columnWidth("\x1b[1;31mHIGH\x1b[0m")).toBe(4);
    expect(columnWidth("🔒 security")).toBe(11);
    expect(columnWidth("⚠️")).toBe(2);
    expect(columnWidth("日本")).toBe(4);
    expect(columnWidth("e\u0301")).toBe(1);
    expect(columnWidth("© · — …")).toBe(7);
  });
});

describe("wrapText", () => {
  it("wraps at spaces under the line's indent, and leaves short lines alone", () => {
    const text = "    one two three four five six seven eight nine ten eleven twelve\nshort";
    expect(wrapText(text, 30)).toBe(
      [
        "    one two three four five",
        "    six seven eight nine ten",
        "    eleven twelve",
        "short",
      ].join("\n"),
    );
  });

  it("continues where the caller says, e.g. under a rank", () => {
    const wrapped = wrapText("  12. HIGH A title long enough to wrap around once", 30, () => 6);
    expect(wrapped).toBe("  12. HIGH A title long enough\n      to wrap around once");
  });

  it("cuts a word wider than the line, and counts emoji as two columns", () => {
    const wrapped = wrapText(`${"x".repeat(45)} 🔒🔒🔒🔒🔒🔒🔒🔒🔒🔒🔒🔒`, 20);
    expect(wrapped.split("\n").map(columnWidth)).toEqual([20, 20, 5, 20, 4]);
  });

  it("keeps colours, which take no room", () => {
    const red = (text: string) => `\x1b[31m${text}\x1b[0m`;
    const wrapped = wrapText(`${red("alpha beta gamma")} delta epsilon zeta eta`, 22);
    expect(wrapped).toBe(`\x1b[31malpha beta gamma\x1b[0m delta\nepsilon zeta eta`);
  });

  it("leaves the text whole for a pipe (Infinity)", () => {
    const long = "word ".repeat(100).trim();
    expect(wrapText(long, Number.POSITIVE_INFINITY)).toBe(long);
  });

  it("never exceeds the width, never loses or reorders a word (any text, any width from 20)", () => {
    const piece = fc.oneof(
      fc.constantFrom(" ", "  ", "🔒", "日本", "\x1b[1m", "\x1b[0m", "é", "—"),
      fc.string({ unit: fc.constantFrom("a", "b", "-", "/", "."), minLength: 1, maxLength: 30 }),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.integer({ min: 20, max: 120 }),
        fc.integer({ min: 0, max: 12 }),
        (pieces, width, indent) => {
          const line = pieces.join("");
          const wrapped = wrapText(line, width, () => indent);
          for (const out of wrapped.split("\n"))
            expect(columnWidth(out)).toBeLessThanOrEqual(width);
          // Cutting a long word splits it, so compare without any whitespace at all.
          expect(wrapped.replace(/\s+/g, "")).toBe(line.replace(/\s+/g, ""));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("outputWidth", () => {
  it("is a terminal's columns (80 when it does not say) and unlimited otherwise", () => {
    expect(outputWidth({ isTTY: true, columns: 132 })).toBe(132);
    expect(outputWidth({ isTTY: true })).toBe(80);
    expect(outputWidth({ isTTY: false, columns: 132 })).toBe(Number.POSITIVE_INFINITY);
    expect(outputWidth({})).toBe(Number.POSITIVE_INFINITY);
  });
});
