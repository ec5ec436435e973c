import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { roundUsage } from "../../src/accounting/index.js";
import type { Consensus, ConsensusSummary } from "../../src/consensus/index.js";
import { escapePlainText } from "../../src/render/escape/literal.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { SUMMARY_FILES_SHOWN } from "../../src/render/summary-view.js";
import { cluster } from "../builders/consensus.js";
import { makeFinding } from "../builders/finding.js";
import { liveMarkup } from "./helpers/live-markup.js";

const markdown = new MarkdownIt({ html: true, linkify: true });

function consensusWith(summary: ConsensusSummary | undefined): Consensus {
  const finding = (model: string) =>
    makeFinding({ model, severity: "high", file: "src/api/users.ts", title: "Cursor not checked" });
  return {
    models: ["m1", "m2"].map((model) => ({
      model,
      provider: "p",
      verdict: "Significant issues",
      lenses: [],
    })),
    modelCount: 2,
    verdict: "Significant issues",
    clusters: [cluster("f1", [finding("m1"), finding("m2")])],
    comparison: null,
    usage: roundUsage({
      reports: [],
      challenges: [
        {
          model: "m1",
          usage: { inputTokens: 4_000, outputTokens: 300 },
          durationMs: 2_000,
          phase: "summary",
        },
      ],
    }),
    ...(summary === undefined ? {} : { summary }),
  };
}

const render = (summary: ConsensusSummary | undefined) =>
  renderConsensusComment(consensusWith(summary), { timed: false }).body;

/** The lines of the summary section: from its heading to the findings table. */
function section(body: string): string {
  const start = body.indexOf("**📝");
  return start === -1 ? "" : body.slice(start, body.indexOf("| | Finding |"));
}

const HOSTILE: ConsensusSummary = {
  state: "written",
  model: "m1",
  lines: [
    "# Approved heading",
    "[click me](javascript:alert(1)) ![x](https://t.example/p.png) <img src=x onerror=alert(1)>",
    "**bold** _em_ `code` <!-- gadfly-consensus --> @octo-org/admins </details>",
    "1. numbered | pipe > quote",
  ],
  groups: [
    {
      label: "<b>API</b> [x](https://e.example)",
      files: Array.from({ length: 9 }, (_, index) => `src/api/f${index}.ts`).concat(
        "src/api/users.ts",
      ),
    },
  ],
  verdictLinesDropped: 2,
};

describe("the summary section of the consensus comment", () => {
  it("sits between the verdict line and the findings, with where the findings fall and its cost", () => {
    const body = render({
      state: "written",
      model: "m1",
      lines: ["Adds cursor pagination."],
      groups: [{ label: "API handlers", files: ["src/api/users.ts"] }],
      verdictLinesDropped: 0,
    });
    const verdict = body.indexOf("**Verdict: Significant issues**");
    const summary = body.indexOf("**📝 What this change does** — `m1`'s description");
    expect(verdict).toBeGreaterThan(-1);
    expect(summary).toBeGreaterThan(verdict);
    expect(body.indexOf("| | Finding |")).toBeGreaterThan(summary);
    expect(section(body)).toContain("not a review verdict · 4k tokens in · 300 out");
    expect(section(body)).toContain("- Adds cursor pagination\\.");
    expect(section(body)).toContain(
      "- API handlers: `src/api/users.ts` — ⚠️ 1 finding, most severe 🔴 high",
    );
  });

  it("renders the model's text as plain words: no heading, link, image, HTML, mention or marker", () => {
    const body = render(HOSTILE);
    const part = section(body);
    const html = markdown.render(part);
    expect(html).not.toMatch(/<h[1-6]|<a |<img|<b>|<strong>bold|<em>em|<code>code|<ol|<blockquote/);
    const live = liveMarkup(part);
    // Our own `<sub>` note aside, nothing is live.
    expect({ ...live, html: live.html.filter((tag) => !/^<\/?sub>$/.test(tag)) }).toEqual({
      images: [],
      html: [],
      hiddenLinks: [],
    });
    expect(part).not.toContain("<!-- gadfly");
    expect(part).not.toMatch(/@octo-org\/admins/);
    // Each line still reads as the model wrote it.
    expect(html).toContain("# Approved heading");
    expect(part).toContain(`… and 4 more files`);
    expect(part.match(/`src\/api\/f\d\.ts`/g)).toHaveLength(SUMMARY_FILES_SHOWN);
    expect(part).toContain("2 lines of the model's answer left out: they claimed a verdict");
    // The verdict is still ours.
    expect(body).toContain("**Verdict: Significant issues**");
  });

  it("says the summary is unavailable and why, and renders nothing when it is off", () => {
    const unavailable = render({
      state: "unavailable",
      model: "m1",
      reason: "the model timed out",
    });
    expect(section(unavailable)).toContain(
      "**📝 Summary unavailable** — the model timed out · 4k tokens in",
    );
    expect(unavailable).toContain("Cursor not checked");
    expect(render(undefined)).not.toContain("📝");
  });
});

describe("escapePlainText", () => {
  it("escapes every markdown mark and defuses mentions, cut to its bound", () => {
    expect(escapePlainText("a *b* [c](d) <e> @f", 100)).toBe(
      "a \\*b\\* \\[c\\]\\(d\\) \\<e\\> \\@\u200Df",
    );
    expect(escapePlainText("x".repeat(500), 10).length).toBeLessThanOrEqual(10);
  });
});
