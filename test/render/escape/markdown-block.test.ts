import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeMarkdownBlock } from "../../../src/render/escape/markdown-block.js";

const ZWJ = "\u200D";

describe("escapeMarkdownBlock", () => {
  it("keeps ordinary markdown as it is", () => {
    const text = [
      "## VERDICT: Minor issues",
      "",
      "- **`agent/finalize.go:54`** — *empty* case, see https://example.com/a_b and `a[i]`[^1]",
      "",
      "| a | b |",
      "|---|---|",
      "| `x` | y |",
      "",
      "```go",
      "if a < b && c > d { return }",
      "```",
    ].join("\n");
    expect(escapeMarkdownBlock(text)).toBe(text);
  });

  it("makes every HTML tag outside code text, so no details, comment or marker is live", () => {
    const text =
      "Done.\n</details>\n</details>\n<!-- gadfly-consensus -->\n<details open><summary>x";
    expect(escapeMarkdownBlock(text)).toBe(
      "Done.\n&lt;/details>\n&lt;/details>\n&lt;!-- gadfly-consensus -->\n&lt;details open>&lt;summary>x",
    );
  });

  it("keeps <br> inside a line but not where it could open an HTML block", () => {
    expect(escapeMarkdownBlock("| a<br>b | c |")).toBe("| a<br>b | c |");
    expect(escapeMarkdownBlock("<br>\n`</details>`")).toBe("&lt;br>\n`</details>`");
  });

  it("leaves HTML inside code spans and fences alone, as it renders as text there", () => {
    const text = "Use `</details>` here\n```html\n<details>\n```";
    expect(escapeMarkdownBlock(text)).toBe(text);
  });

  it("still breaks every HTML comment opening inside code, where a raw-body search would find it", () => {
    expect(escapeMarkdownBlock("`<!-- gadfly-status-board -->`")).toBe(
      `\`<!${ZWJ}-- gadfly-status-board -->\``,
    );
    expect(escapeMarkdownBlock("```\n<!-- cut short\n```")).toBe(
      `\`\`\`\n<!${ZWJ}-- cut short\n\`\`\``,
    );
  });

  it("closes a fence left open, at the opening fence's indentation", () => {
    expect(escapeMarkdownBlock("Look:\n````ts\nconst a = 1;")).toBe(
      "Look:\n````ts\nconst a = 1;\n````",
    );
    expect(escapeMarkdownBlock("- item\n  ~~~\n  code")).toBe("- item\n  ~~~\n  code\n  ~~~");
  });

  it("closes a list item's fence before a less indented line that would end the item", () => {
    const text = "- item\n  ```\n  code\n</details>";
    expect(escapeMarkdownBlock(text)).toBe("- item\n  ```\n  code\n  ```\n&lt;/details>");
  });

  it("re-indents a closing fence so it closes for every reader", () => {
    // Indented four spaces it is content to CommonMark at the top level; we close it there.
    const text = "```\ncode\n    ```\n</details>";
    expect(escapeMarkdownBlock(text)).toBe("```\ncode\n```\n&lt;/details>");
  });

  it("does not take a backtick line whose info string holds a backtick for a fence", () => {
    expect(escapeMarkdownBlock("``` a`b\n</details>")).toBe("\\`\\`\\` a\\`b\n&lt;/details>");
  });

  it("escapes backticks that close nothing, so no code span can reach across lines", () => {
    expect(escapeMarkdownBlock("a `b\nc` </details>")).toBe("a \\`b\nc\\` &lt;/details>");
  });

  it("does not trust a code span across a pipe in a table (GFM splits cells first)", () => {
    const text = "| a | b |\n|---|---|\n| `x|</details>` | y |";
    expect(escapeMarkdownBlock(text)).toBe("| a | b |\n|---|---|\n| \\`x|&lt;/details>\\` | y |");
  });

  it("defuses mentions outside code and keeps e-mails, URLs and issue links", () => {
    const text =
      "cc @octocat and @github/security-team, mail a@b.c, see #123, https://x.io/@me `@code`";
    expect(escapeMarkdownBlock(text)).toBe(
      `cc @${ZWJ}octocat and @${ZWJ}github/security-team, mail a@b.c, see #123, https://x.io/@me \`@code\``,
    );
  });

  it("defuses mentions spelt as entities", () => {
    expect(escapeMarkdownBlock("&#64;octocat &#x40;hubot &commat;x")).toBe(
      `@${ZWJ}octocat @${ZWJ}hubot @${ZWJ}x`,
    );
  });

  it("removes bidi controls but keeps emoji joiners", () => {
    expect(escapeMarkdownBlock("admin\u202E\u2066 user 👩‍💻")).toBe("admin user 👩‍💻");
  });

  it("never lets HTML, a marker or a mention through outside code (no backticks or fences)", () => {
    const piece = fc.constantFrom(
      "<details>",
      "</details>",
      "<!--",
      "-->",
      "<summary>",
      "<br>",
      "@bob ",
      "@org/team",
      "&#64;x",
      "\\",
      "|",
      "---",
      "\n",
      " ",
      "x",
      "<",
      ">",
      "&",
      "\u202E",
      "# ",
      "- ",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const output = escapeMarkdownBlock(pieces.join(""));
        expect(output.replace(/<br>(?=[^\n]*\S)/g, "")).not.toContain("<");
        expect(output).not.toMatch(/(^|[^A-Za-z0-9_])@[A-Za-z0-9]/);
        expect(output).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
      }),
    );
  });

  it("stays linear on a line of unmatched backticks", () => {
    const text = `${"``` `` ".repeat(20_000)}\``;
    const started = performance.now();
    escapeMarkdownBlock(text);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
