import { describe, expect, it } from "vitest";
import type { Cluster } from "../../src/consensus/cluster.js";
import type { Consensus } from "../../src/consensus/consensus.js";
import { parseMetaComment } from "../../src/render/meta-comment.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";
import { pageLensReport, referenceConsensus, roundTwoConsensus } from "./reference-page.js";

const ZWJ = "\u200D";
const FOOTER =
  "<sub>Automated adversarial review by Gadfly — consensus across the model swarm. Advisory only — does not block merge.</sub>\n";

function withTitle(consensus: Consensus, title: string): Consensus {
  const [first, ...rest] = consensus.clusters as [Cluster, ...Cluster[]];
  const representative = { ...first.representative, title };
  return { ...consensus, clusters: [{ ...first, representative }, ...rest] };
}

describe("renderConsensusComment", () => {
  it("has the reference page's head: marker, heading, verdict with counts", () => {
    const { body, overflow } = renderConsensusComment(referenceConsensus(), {
      lenses: LENS_TITLES,
    });
    expect(body.split("\n").slice(0, 3)).toEqual([
      "<!-- gadfly-consensus -->",
      "## 🪰 Gadfly review — consensus across 4 models",
      "**Verdict: Minor issues** · 6 findings (2 with multi-model agreement)",
    ]);
    expect(body).toContain("| | Finding | Where | Models | Lens |");
    expect(body).toContain(
      "<details><summary>4 single-model findings (lower confidence)</summary>",
    );
    expect(body).toContain(
      "| 🟠 medium | **3.** summaryCloserRe regex can false-positive on prose where [.] is not end-of-sentence | `agent/finalize.go:139-141` | kimi-k2.6:cloud | error-handling |",
    );
    expect(body).toContain(
      "<details><summary><b>kimi-k2.6:cloud</b> (ollama-cloud) — Minor issues</summary>",
    );
    expect(body).toContain(
      "<details><summary><b>🧯 Error handling &amp; edge cases</b> — Minor issues</summary>",
    );
    expect(body.endsWith(FOOTER)).toBe(true);
    expect(overflow).toEqual([]);
  });

  it("says so plainly when there is nothing to report", () => {
    const consensus: Consensus = {
      ...referenceConsensus(),
      models: referenceConsensus().models.slice(0, 1),
      modelCount: 1,
      clusters: [],
      verdict: "No material issues found",
    };
    const { body } = renderConsensusComment(consensus, { lenses: LENS_TITLES });
    expect(body).toContain(
      "consensus across 1 model\n**Verdict: No material issues found** · no findings\n",
    );
    expect(body).not.toContain("| Finding |");
    expect(body).not.toContain("single-model");
  });

  it("warns when no model completed its review", () => {
    const consensus = { ...referenceConsensus(), modelCount: 0, clusters: [] };
    expect(renderConsensusComment(consensus, { lenses: LENS_TITLES }).body).toContain(
      "⚠️ No model completed its review",
    );
  });

  it("keeps a hostile title inside its table cell", () => {
    const title = "a | b\n</details><!-- gadfly-status-board --> `x|y` @octocat ` \u202Eevil";
    const { body } = renderConsensusComment(withTitle(referenceConsensus(), title), {
      lenses: LENS_TITLES,
    });
    const row = body.split("\n").find((line) => line.includes("octocat")) ?? "";
    expect(row.match(/(^|[^\\])\|/g)).toHaveLength(6);
    expect(row).toBe(
      `| 🟡 low | **1.** a \\| b &lt;/details>&lt;!-- gadfly-status-board --> \`x\\|y\` @${ZWJ}octocat \\\` evil | \`agent/finalize.go:130-131\` | 3/4 | maintainability |`,
    );
  });

  it("keeps one model's broken lens text from breaking the rest of the comment", () => {
    const consensus = referenceConsensus();
    const [opus] = consensus.models;
    const security = opus?.lenses[0];
    if (opus === undefined || security === undefined) throw new Error("fixture");
    opus.lenses[0] = {
      ...security,
      text: "</details></details>\n<!-- gadfly-consensus -->\n<details>\n```js\nconst open = '<details>';",
    };
    const { body } = renderConsensusComment(consensus, { lenses: LENS_TITLES });
    expect(body.match(/^<details/gm)?.length).toBe(body.match(/^<\/details>/gm)?.length);
    expect(body.match(/<!--/g)).toHaveLength(1);
    expect(body).toContain("```js\nconst open = '<details>';\n```\n\n</details>");
    expect(body.endsWith(FOOTER)).toBe(true);
  });

  it("titles lenses from their definitions, else from their id", () => {
    const consensus = referenceConsensus();
    const [opus] = consensus.models;
    if (opus === undefined) throw new Error("fixture");
    opus.lenses.push(
      pageLensReport(opus.model, opus.provider, "accessibility", { text: "Fine." }),
      pageLensReport(opus.model, opus.provider, "data-privacy", { text: "Fine." }),
    );
    const { body } = renderConsensusComment(consensus, {
      lenses: { ...LENS_TITLES, accessibility: { title: "Accessibility", emoji: "♿" } },
    });
    expect(body).toContain(
      "<details><summary><b>♿ Accessibility</b> — No material issues found</summary>",
    );
    expect(body).toContain(
      "<details><summary><b>🔎 Data privacy</b> — No material issues found</summary>",
    );
    expect(body).toContain(
      "— 7 reviewers: security, correctness, maintainability, performance, error-handling, accessibility, data-privacy",
    );
  });

  it("shows round 2's changes, failed lenses, recovered answers and dropped findings", () => {
    const { body } = renderConsensusComment(roundTwoConsensus(), { lenses: LENS_TITLES });
    expect(body).toContain(
      "**Since the last round** (`9f8e7d6`): ✅ 2 fixed · 🔁 4 still open · 🆕 1 new",
    );
    expect(body).toContain(
      "· [comment](https://github.com/steve/mort/pull/412#discussion_r2260101)",
    );
    expect(body).toContain(
      "— 5 reviewers: security, correctness, maintainability, performance (failed), error-handling",
    );
    expect(body).toContain(
      "<details><summary><b>⚡ Performance</b> — ⚠️ failed</summary>\n\n**Not completed:** timed out after 900 s\n\n</details>",
    );
    expect(body).toContain("_Final answer recovered from an earlier turn");
    expect(body).toContain("— Significant issues · 2 findings dropped by verification</summary>");
  });

  it("links only http(s) URLs", () => {
    const consensus = roundTwoConsensus();
    const fixed = consensus.comparison?.fixed[0];
    if (fixed === undefined) throw new Error("fixture");
    fixed.url = "javascript:alert(1)";
    expect(renderConsensusComment(consensus, { lenses: LENS_TITLES }).body).not.toContain(
      "javascript:",
    );
  });

  it("carries the meta line, and leaves it out (saying so) when it would crowd the comment", () => {
    const meta = { runId: "r1", round: 1, fingerprints: ["a", "b"] };
    const small = renderConsensusComment(referenceConsensus(), { lenses: LENS_TITLES, meta });
    expect(small.metaIncluded).toBe(true);
    expect(small.body.split("\n")[1]).toMatch(/^<!-- gadfly-meta /);
    expect(parseMetaComment(small.body)).toEqual(meta);
    const huge = renderConsensusComment(referenceConsensus(), {
      lenses: LENS_TITLES,
      meta: { fingerprints: Array.from({ length: 5_000 }, (_, i) => `fingerprint-${i}`) },
    });
    expect(huge.metaIncluded).toBe(false);
    expect(huge.body).not.toContain("gadfly-meta");
  });

  it("moves per-model detail to one comment per model, then cuts tables, to fit", () => {
    const consensus = referenceConsensus();
    const folded = renderConsensusComment(consensus, { lenses: LENS_TITLES, maxLength: 8_000 });
    expect(folded.body.length).toBeLessThanOrEqual(8_000);
    expect(folded.body).not.toContain("Per-model detail</summary>");
    expect(folded.body).toContain("**Per-model detail** is in one comment per model");
    expect(folded.overflow.map((o) => o.marker)).toEqual([
      "<!-- gadfly-model:claude-code/opus -->",
      "<!-- gadfly-model:claude-code/sonnet -->",
      "<!-- gadfly-model:glm-5.2:cloud -->",
      "<!-- gadfly-model:kimi-k2.6:cloud -->",
    ]);
    const cut = renderConsensusComment(consensus, { lenses: LENS_TITLES, maxLength: 1_800 });
    expect(cut.body.length).toBeLessThanOrEqual(1_800);
    expect(cut.body).toMatch(
      /… and \d+ more (multi|single)-model findings?, not shown: comment size limit\./,
    );
    expect(cut.body.endsWith(FOOTER)).toBe(true);
  });
});
