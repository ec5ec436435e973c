import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeMarkdownBlock } from "../../../src/render/escape/markdown-block.js";
import { escapeInline } from "../../../src/render/escape/markdown-line.js";
import { liveMarkup } from "../helpers/live-markup.js";

const ZWJ = "\u200D";
const nothingLive = { images: [], html: [], hiddenLinks: [] };

describe("images from a model are never loaded, and the text says one was removed", () => {
  it.each([
    ["inline", "![pixel](https://t.example/p.gif)", "https://t.example/p.gif"],
    ["with a title", '![x](https://t.example/p.gif "hi")', "https://t.example/p.gif"],
    ["angle-bracket target", "![x](<https://t.example/a b.gif>)", "https://t.example/a%20b.gif"],
    ["upper-case HTML", '<IMG SRC="https://t.example/p.gif">', "https://t.example/p.gif"],
    [
      "HTML, single quotes",
      "<img alt=x src='https://t.example/p.gif'/>",
      "https://t.example/p.gif",
    ],
  ])("%s", (_kind, text, url) => {
    const escaped = escapeMarkdownBlock(text);
    expect(escaped).toBe(`\\[image removed: <${url}>\\]`);
    expect(liveMarkup(escaped)).toEqual(nothingLive);
  });

  it("resolves reference-style images through the text's definitions, and kills the definition", () => {
    const text = '![a][pix] and ![pix][] and ![pix]\n\n[PIX]: https://t.example/p.gif "t"';
    const escaped = escapeMarkdownBlock(text);
    expect(escaped).toBe(
      [
        "\\[image removed: <https://t.example/p.gif>\\] and \\[image removed: <https://t.example/p.gif>\\] and \\[image removed: <https://t.example/p.gif>\\]",
        "",
        '\\[PIX\\]: https://t.example/p.gif "t"',
      ].join("\n"),
    );
    expect(liveMarkup(escaped).images).toEqual([]);
  });

  it("an image inside a link (a badge) loses the image and shows both targets", () => {
    const escaped = escapeMarkdownBlock("[![ci](https://img.example/b.svg)](https://ci.example/x)");
    expect(escaped).toBe(
      "\\[image removed: <https://img.example/b.svg>\\] (<https://ci.example/x>)",
    );
    expect(liveMarkup(escaped)).toEqual(nothingLive);
  });

  it("a data: or relative image shows its source as code, links nowhere", () => {
    expect(escapeMarkdownBlock("![x](data:image/png;base64,AAAA)")).toBe(
      "\\[image removed: `data:image/png;base64,AAAA`\\]",
    );
    expect(escapeMarkdownBlock("<img src=../up.png>")).toBe("\\[image removed: `../up.png`\\]");
    expect(escapeMarkdownBlock("<img alt=nothing>")).toBe("\\[image removed\\]");
  });

  it("other HTML, entity-spelt tags and HTML comments stay visible text", () => {
    const text =
      "<picture><source srcset=https://t.example/p></picture> <svg onload=alert(1)> &lt;img src=x&gt; <!-- hidden --> <details open>";
    const escaped = escapeMarkdownBlock(text);
    expect(escaped).toBe(
      "&lt;picture>&lt;source srcset=https://t.example/p>&lt;/picture> &lt;svg onload=alert(1)> &lt;img src=x&gt; &lt;!-- hidden --> &lt;details open>",
    );
    expect(liveMarkup(escaped)).toEqual(nothingLive);
  });
});

describe("links show their real target", () => {
  it.each([
    ["masked", "[click here](https://evil.example)", "click here (<https://evil.example/>)"],
    [
      "with a title",
      '[GitHub](https://evil.example "github.com")',
      "GitHub (<https://evil.example/>)",
    ],
    ["nested brackets", "[a [b] c](https://e.example/x)", "a [b] c (<https://e.example/x>)"],
    ["angle brackets", "[x](<https://e.example/a b>)", "x (<https://e.example/a%20b>)"],
    ["parentheses", "[x](https://e.example/a_(b))", "x (<https://e.example/a_(b)>)"],
    ["credentials", "[gh](https://github.com@evil.example/)", "gh (<https://evil.example/>)"],
    [
      "a look-alike URL as text",
      "[https://github.com](https://evil.example)",
      "https://github.com (<https://evil.example/>)",
    ],
    ["javascript:", "[x](javascript:alert(1))", "x (`javascript:alert(1)`)"],
    ["relative", "[x](../secrets)", "x (`../secrets`)"],
    ["entities in the target", "[x](https://evil&#46;example)", "x (<https://evil.example/>)"],
    ["escaped !", "\\![x](https://e.example)", "\\!x (<https://e.example/>)"],
    ["empty text", "[](https://e.example)", " (<https://e.example/>)"],
  ])("%s", (_kind, text, expected) => {
    const escaped = escapeMarkdownBlock(text);
    expect(escaped).toBe(expected);
    expect(liveMarkup(escaped)).toEqual(nothingLive);
  });

  it("reference links, collapsed and shortcut, use the definition's target", () => {
    const text = "[docs][d], [d][] and [d].\n\n[d]: <https://evil.example/x> 'title'";
    const escaped = escapeMarkdownBlock(text);
    expect(escaped.split("\n")[0]).toBe(
      "docs (<https://evil.example/x>), d (<https://evil.example/x>) and d (<https://evil.example/x>).",
    );
    expect(liveMarkup(escaped)).toEqual(nothingLive);
  });

  it("a link whose text breaks across lines stays literal, its target in sight", () => {
    const escaped = escapeMarkdownBlock("[click\nhere](https://evil.example)");
    expect(escaped).toBe("\\[click\nhere\\](https://evil.example)");
    expect(liveMarkup(escaped)).toEqual(nothingLive);
  });

  it("a definition split over lines defines nothing", () => {
    const escaped = escapeMarkdownBlock("[x]\n\n[x]:\n  https://evil.example");
    expect(liveMarkup(escaped)).toEqual(nothingLive);
  });

  it("keeps brackets that link nowhere: indexing, task boxes, footnotes", () => {
    expect(escapeMarkdownBlock("array[i] and - [ ] task")).toBe("array[i] and - [ ] task");
    const footnote = escapeMarkdownBlock("see [^1]\n\n[^1]: https://evil.example");
    expect(footnote).toBe("see [^1]\n\n\\[^1\\]: https://evil.example");
  });

  it("a mention in link text, a mailto: and an angle autolink ping no one", () => {
    expect(
      escapeMarkdownBlock("[@octocat](https://github.com/octocat) [m](mailto:@bob) <@carol>"),
    ).toBe(`@${ZWJ}octocat (<https://github.com/octocat>) m (\`mailto:@bob\`) &lt;@${ZWJ}carol>`);
  });

  it("leaves links and images inside code spans and fences literal", () => {
    const text = "`[x](https://e)` and `![i](u)`\n```md\n[x](https://e)\n![i](u)\n<img src=u>\n```";
    expect(escapeMarkdownBlock(text)).toBe(text);
  });

  it("a link with a code span in its text keeps the code", () => {
    expect(escapeMarkdownBlock("[`fs.rm`](https://nodejs.org/api/fs.html)")).toBe(
      "`fs.rm` (<https://nodejs.org/api/fs.html>)",
    );
  });

  it("on a table row, no link spans a cell boundary and no row gains a cell", () => {
    const text = "| a | b |\n|---|---|\n| [x](https://e.example/a|b) | ![i](https://t.example/p) |";
    const escaped = escapeMarkdownBlock(text);
    expect(escaped.split("\n")[2]).toBe(
      "| \\[x\\](https://e.example/a|b) | \\[image removed: <https://t.example/p>\\] |",
    );
    expect(liveMarkup(escaped)).toEqual(nothingLive);
  });

  it("in a table cell (escapeInline) a pipe in a target is encoded", () => {
    const cell = escapeInline("[x](https://e.example/a|b) | y", { tableCell: true });
    expect(cell).toBe("x (<https://e.example/a%7Cb>) \\| y");
  });

  it("an unpaired bracket before our own template link cannot capture it", () => {
    // escapeInline output is followed by template text such as ` · [comment](url)`.
    expect(escapeInline("title [")).toBe("title \\[");
    expect(escapeInline("title ](")).toBe("title \\](");
  });
});

describe("nothing a model writes becomes an image, raw HTML or a hidden link", () => {
  const piece = fc.constantFrom(
    "[",
    "]",
    "(",
    ")",
    "!",
    "<",
    ">",
    "https://e.example/",
    "javascript:x",
    ' "t"',
    "\n",
    "\n\n",
    "`",
    "|",
    "\\",
    ":",
    " ",
    "x",
    "img src=",
    "&lt;",
    "&#91;",
    "<!--",
    "[r]: https://r.example/",
    "|---|---|\n",
    "- ",
    "> ",
  );
  it("for random mixtures of link, image and HTML syntax", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join("");
        const block = escapeMarkdownBlock(text);
        expect(liveMarkup(block), JSON.stringify({ text, block })).toEqual(nothingLive);
        const inline = `${escapeInline(text)} · [comment](https://github.com/o/r/pull/1)`;
        const live = liveMarkup(inline);
        expect(live.images, inline).toEqual([]);
        expect(live.html, inline).toEqual([]);
        expect(live.hiddenLinks, inline).toEqual([
          { text: "comment", href: "https://github.com/o/r/pull/1" },
        ]);
      }),
      { numRuns: 2_000 },
    );
  });

  it("stays linear on a line of many `](`", () => {
    const text = `${"[a](".repeat(20_000)}${"[b](x ".repeat(5_000)}${"[b][c] ".repeat(5_000)}`;
    const started = performance.now();
    escapeMarkdownBlock(`${text}\n\n[c]: https://e.example`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
