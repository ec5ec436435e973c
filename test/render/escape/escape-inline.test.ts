import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeCodeSpan, escapeHtml } from "../../../src/render/escape/literal.js";
import { escapeInline } from "../../../src/render/escape/markdown-line.js";

const ZWJ = "\u200D";

describe("escapeInline", () => {
  it("keeps a title's code spans and emphasis", () => {
    const title = "Leading-marker class `[\\s>#*_+-]*` is *duplicated*";
    expect(escapeInline(title)).toBe(title);
  });

  it("makes one line of any text, HTML and markers included", () => {
    expect(escapeInline("a\nb\r\n\tc  <!-- gadfly-consensus --> </details>")).toBe(
      "a b c &lt;!-- gadfly-consensus --> &lt;/details>",
    );
  });

  it("escapes every pipe in a table cell, inside code spans too", () => {
    expect(escapeInline("a | b `c|d`", { tableCell: true })).toBe("a \\| b `c\\|d`");
    expect(escapeInline("a | b")).toBe("a | b");
  });

  it("escapes an unpaired backtick and a trailing backslash", () => {
    expect(escapeInline("use `foo")).toBe("use \\`foo");
    expect(escapeInline("ends with \\")).toBe("ends with \\\\");
  });

  it("cuts long text with an ellipsis before escaping", () => {
    expect(escapeInline("abcdefghij", { maxLength: 5 })).toBe("abcd…");
    expect(escapeInline("😀😀😀", { maxLength: 4 })).toBe("😀…");
  });

  it("strips zero-width and bidi characters from titles", () => {
    expect(escapeInline("p\u200Bay\u202Epal\u2066 \uFEFFok")).toBe("paypal ok");
  });

  it("defuses mentions but keeps e-mails and issue references", () => {
    expect(escapeInline("@alice, (@org/team) a@b.c #12")).toBe(
      `@${ZWJ}alice, (@${ZWJ}org/team) a@b.c #12`,
    );
  });

  it("never yields a line break, an unescaped pipe or a live marker in a cell", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        const cell = escapeInline(text, { tableCell: true });
        expect(cell).not.toMatch(/[\n\r]/);
        expect(cell).not.toMatch(/(^|[^\\])\|/);
        expect(cell.toLowerCase()).not.toContain("<!-- gadfly");
      }),
    );
  });
});

describe("escapeCodeSpan", () => {
  it("wraps text in a fence longer than any backtick run inside", () => {
    expect(escapeCodeSpan("src/a.ts:12")).toBe("`src/a.ts:12`");
    expect(escapeCodeSpan("a`b")).toBe("``a`b``");
    expect(escapeCodeSpan("`x`")).toBe("`` `x` ``");
  });

  it("escapes pipes in a table cell and keeps a long path's end", () => {
    expect(escapeCodeSpan("a|b", { tableCell: true })).toBe("`a\\|b`");
    expect(escapeCodeSpan(`${"d/".repeat(100)}file.ts`, { maxLength: 20 })).toBe(
      "`…d/d/d/d/d/d/file.ts`",
    );
  });
});

describe("escapeHtml", () => {
  it("escapes for raw HTML and defuses mentions", () => {
    expect(escapeHtml('<b>"x" & @bob</b>')).toBe(
      `&lt;b&gt;&quot;x&quot; &amp; @${ZWJ}bob&lt;/b&gt;`,
    );
  });
});
