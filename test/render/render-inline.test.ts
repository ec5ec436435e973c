import { describe, expect, it } from "vitest";
import type { Cluster } from "../../src/consensus/cluster.js";
import { renderInlineComment } from "../../src/render/render-inline-comment.js";
import {
  type HeldBack,
  heldBackLine,
  renderInlineReviewBody,
} from "../../src/render/render-inline-review-body.js";
import { referenceClusters } from "./reference-page.js";

function clusters(): [Cluster, Cluster, Cluster, ...Cluster[]] {
  return referenceClusters() as [Cluster, Cluster, Cluster, ...Cluster[]];
}

describe("renderInlineComment", () => {
  it("has the published shape: severity and title, lens and agreement, detail, footer", () => {
    const [leading] = clusters();
    const lines = renderInlineComment(leading).split("\n");
    expect(lines[0]).toBe(`🟡 **${leading.representative.title}**`);
    expect(lines[1]).toBe("_maintainability · flagged by 3 models_");
    expect(lines[2]).toBe(`- ${leading.representative.body}`);
    expect(lines.slice(3, 6)).toEqual([
      "",
      "<details><summary>🤖 Fix hand-off: a prompt for a coding agent</summary>",
      "",
    ]);
    expect(lines.slice(6, 9)).toEqual([
      "```text",
      "Fix one code-review finding (from Gadfly, an advisory multi-model review).",
      "",
    ]);
    expect(lines).toContain("File: agent/finalize.go");
    expect(lines).toContain("Lines: 130-131");
    expect(lines.slice(-7)).toEqual([
      "```",
      "",
      "</details>",
      "",
      "<sub>🪰 Gadfly · advisory</sub>",
      "<!-- gadfly-finding:fp-leading-marker -->",
      "",
    ]);
  });

  it("counts the hand-off's agreement out of the round's models, not the cluster's", () => {
    const [leading] = clusters();
    expect(leading.models).toHaveLength(3);
    expect(renderInlineComment(leading, {}, undefined, 4)).toContain("· models agreeing: 3/4");
    // A confirmation on cross-examination counts: 4 agree, of the round's 4.
    const confirmed = { ...leading, confirmedBy: ["gpt-5.1"] };
    expect(renderInlineComment(confirmed, {}, undefined, 4)).toContain("· models agreeing: 4/4");
  });

  it("says 1 model, singular, and lists every lens that flagged it", () => {
    const [, , regex] = clusters();
    const other = { ...regex.representative, lens: "correctness", model: "glm-5.2:cloud" };
    const body = renderInlineComment({ ...regex, findings: [regex.representative, other] });
    expect(body).toContain("_error-handling, correctness · flagged by 1 model_");
  });

  it("keeps a multi-line body inside its list item and cuts a long one, closing its fence", () => {
    const [leading] = clusters();
    const body = `Intro @octocat\n\n\`\`\`go\n${"x := 1\n".repeat(400)}`;
    const rendered = renderInlineComment({
      ...leading,
      representative: { ...leading.representative, body },
    });
    expect(rendered).toContain("- Intro @\u200Doctocat\n\n  ```go\n  x := 1\n");
    expect(rendered).toContain("…\n  ```\n\n<details><summary>🤖 Fix hand-off");
    // The body cut to 1,500 characters, the hand-off's explanation too.
    expect(rendered.length).toBeLessThan(5_500);
  });

  it("escapes a hostile title onto one line", () => {
    const [leading] = clusters();
    const title = "**x** </details>\n<!-- gadfly-inline-review -->";
    const rendered = renderInlineComment({
      ...leading,
      representative: { ...leading.representative, title },
    });
    expect(rendered.split("\n")[0]).toBe(
      "🟡 ****x** &lt;/details> &lt;!-- gadfly-inline-review -->**",
    );
  });
});

describe("renderInlineReviewBody", () => {
  it("counts the inline findings, singular included, and links the consensus comment", () => {
    expect(renderInlineReviewBody({ inlineCount: 1, unplaced: [] })).toBe(
      "<!-- gadfly-inline-review -->\n🪰 **Gadfly consensus review** — 1 inline finding on changed lines. See the consensus comment for the full ranked summary.\n\n<sub>Advisory only — does not block merge.</sub>\n",
    );
    expect(
      renderInlineReviewBody({
        inlineCount: 5,
        unplaced: [],
        consensusUrl: "https://github.com/o/r/pull/1#issuecomment-9",
      }),
    ).toContain(
      "— 5 inline findings on changed lines. See the [consensus comment](https://github.com/o/r/pull/1#issuecomment-9) for",
    );
  });

  it("lists what could not be placed inline, and counts what does not fit", () => {
    const [leading, emptyCase] = clusters();
    const unplaced = [
      { cluster: leading, reason: "outside-diff" as const },
      ...Array.from({ length: 200 }, () => ({ cluster: emptyCase, reason: "over-limit" as const })),
    ];
    const body = renderInlineReviewBody({ inlineCount: 30, unplaced }, { maxLength: 3_000 });
    expect(body.length).toBeLessThanOrEqual(3_000);
    expect(body).toContain("**201 findings could not be placed inline:**");
    expect(body).toContain(
      "— `agent/finalize.go:130-131` · flagged by 3 models · not on a changed line",
    );
    expect(body).toMatch(
      /\n- … and \d+ more\n\n<sub>Advisory only — does not block merge\.<\/sub>\n$/,
    );
  });
});

describe("the held-back line", () => {
  const none = { off: 0, belowSeverity: 0, lone: 0, disputed: 0, overCap: 0 };
  const heldBack = (counts: Partial<HeldBack["counts"]>, maxInline = 30): HeldBack => ({
    counts: { ...none, ...counts },
    policy: { minSeverity: "medium", maxInline },
  });

  it("says in one plain sentence how many findings are in the consensus comment only, and why", () => {
    expect(heldBackLine(heldBack({}))).toBeNull();
    expect(heldBackLine(heldBack({ lone: 1 }))).toBe(
      "1 single-model finding below high severity is in the consensus comment only.",
    );
    expect(heldBackLine(heldBack({ lone: 4, overCap: 1 }))).toBe(
      "4 single-model findings below high severity and 1 over the limit of 30 inline comments are in the consensus comment only.",
    );
    expect(heldBackLine(heldBack({ lone: 2, belowSeverity: 3, overCap: 1 }, 1))).toBe(
      "2 single-model findings below high severity, 3 findings below medium severity and 1 over the limit of 1 inline comment are in the consensus comment only.",
    );
    expect(heldBackLine(heldBack({ belowSeverity: 1 }))).toBe(
      "1 finding below medium severity is in the consensus comment only.",
    );
    expect(heldBackLine(heldBack({ off: 1_200 }))).toBe(
      "1,200 findings (inline comments are off) are in the consensus comment only.",
    );
  });

  it("stands on its own line after the count, and is absent when nothing was held back", () => {
    const body = renderInlineReviewBody({
      inlineCount: 2,
      unplaced: [],
      heldBack: heldBack({ lone: 3 }),
    });
    expect(body).toBe(
      "<!-- gadfly-inline-review -->\n🪰 **Gadfly consensus review** — 2 inline findings on changed lines. See the consensus comment for the full ranked summary.\n\n3 single-model findings below high severity are in the consensus comment only.\n\n<sub>Advisory only — does not block merge.</sub>\n",
    );
    const quiet = renderInlineReviewBody({ inlineCount: 2, unplaced: [], heldBack: heldBack({}) });
    expect(quiet).toBe(renderInlineReviewBody({ inlineCount: 2, unplaced: [] }));
    expect(quiet).not.toContain("consensus comment only");
  });
});
