import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatMetaComment, parseMetaComment } from "../../src/render/meta-comment.js";

describe("formatMetaComment", () => {
  it("writes one hidden line that reads back as the same JSON", () => {
    const meta = { runId: "r-1", headSha: "abc", round: 2, fingerprints: ["a--b", "-->", "<!--"] };
    const line = formatMetaComment(meta);
    expect(line.startsWith("<!-- gadfly-meta {")).toBe(true);
    expect(line).not.toContain("\n");
    expect(parseMetaComment(`<!-- gadfly-consensus -->\n${line}\n## heading`)).toEqual(meta);
  });

  it("can never end the HTML comment early or open another, whatever the JSON holds", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const line = formatMetaComment(value);
        const inner = line.slice("<!-- ".length, -" -->".length);
        expect(inner).not.toContain("--");
        expect(inner).not.toMatch(/[<>]/);
        expect(parseMetaComment(line)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("reads null from a body without meta or with broken JSON", () => {
    expect(parseMetaComment("<!-- gadfly-consensus -->")).toBeNull();
    expect(parseMetaComment("<!-- gadfly-meta {oops -->")).toBeNull();
  });
});
