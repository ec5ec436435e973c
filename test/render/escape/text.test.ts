import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { breakCommentOpeners, truncateText } from "../../../src/render/escape/text.js";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("truncateText", () => {
  it("keeps text that fits and cuts the rest with an ellipsis", () => {
    expect(truncateText("abc", 3)).toEqual({ text: "abc", omitted: 0 });
    expect(truncateText("abcdef", 4)).toEqual({ text: "abc…", omitted: 3 });
  });

  it("never exceeds the limit nor splits a surrogate pair", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), fc.nat(80), (text, limit) => {
        const { text: cut } = truncateText(text, limit);
        expect(cut.length).toBeLessThanOrEqual(Math.max(limit, 0));
        expect(cut).not.toMatch(LONE_SURROGATE);
      }),
    );
  });
});

describe("breakCommentOpeners", () => {
  it("breaks every <!-- with a zero-width joiner, so no marker can be found in the raw body", () => {
    expect(breakCommentOpeners("a <!-- gadfly-consensus --> b <!--")).toBe(
      "a <!\u200D-- gadfly-consensus --> b <!\u200D--",
    );
    expect(breakCommentOpeners("<! -- -->")).toBe("<! -- -->");
  });
});
