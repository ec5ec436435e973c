import { describe, expect, it } from "vitest";
import { formatJson } from "../../src/cli/format-json.js";
import { formatText } from "../../src/cli/format-text.js";
import { JsonReport } from "../../src/cli/schema.js";
import type { Consensus } from "../../src/consensus/consensus.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";
import { referenceConsensus } from "./reference-page.js";

/** The reference round, with kimi's security lens having answered 57 more findings than the limit. */
function withOverflow(): Consensus {
  const consensus = referenceConsensus();
  return {
    ...consensus,
    models: consensus.models.map((model) =>
      model.model !== "kimi-k2.6:cloud"
        ? model
        : {
            ...model,
            lenses: model.lenses.map((lens) =>
              lens.lens === "security" ? { ...lens, overLimit: 57 } : lens,
            ),
          },
    ),
  };
}

describe("findings dropped over the per-lens limit", () => {
  it("are counted in the lens section of the consensus comment", () => {
    const { body } = renderConsensusComment(withOverflow(), { lenses: LENS_TITLES });
    expect(body).toContain(
      "<b>🔒 Security</b> — No material issues found · 57 more findings dropped (limit 50 per lens)</summary>",
    );
    expect(body.match(/more findings? dropped/g)).toHaveLength(1);
    expect(
      renderConsensusComment(referenceConsensus(), { lenses: LENS_TITLES }).body,
    ).not.toContain("more finding");
  });

  it("are counted in the CLI's text and JSON", () => {
    const text = formatText(withOverflow(), { color: false, notReviewed: [] });
    expect(text).toContain("    security: 57 more findings dropped (limit 50 per lens)\n");
    const json = JsonReport.parse(
      JSON.parse(
        formatJson(withOverflow(), {
          toolVersion: "0.1.0",
          headSha: "a".repeat(40),
          baseSha: "b".repeat(40),
          notReviewed: [],
        }),
      ),
    );
    const kimi = json.models.find((model) => model.id === "kimi-k2.6:cloud");
    expect(kimi?.lenses.find((lens) => lens.lens === "security")?.overLimit).toBe(57);
    expect(kimi?.lenses.find((lens) => lens.lens === "correctness")?.overLimit).toBe(0);
  });
});
