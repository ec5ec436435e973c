import { describe, expect, it } from "vitest";
import type { ModelSummary } from "../../src/consensus/consensus.js";
import { escapeMarkdownBlock } from "../../src/render/escape/markdown-block.js";
import { modelCommentMarker } from "../../src/render/markers.js";
import { publishedLensText } from "../../src/render/model-view.js";
import { renderModelOverflowComment } from "../../src/render/render-model-overflow-comment.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";
import { pageLensReport, referenceConsensus } from "./reference-page.js";

function opus(): ModelSummary {
  const [model] = referenceConsensus().models;
  if (model === undefined) throw new Error("fixture");
  return model;
}

describe("renderModelOverflowComment", () => {
  it("starts with the model's marker and shows every lens whole when it fits", () => {
    const comment = renderModelOverflowComment(opus(), { lenses: LENS_TITLES });
    expect(comment.marker).toBe("<!-- gadfly-model:claude-code/opus -->");
    expect(
      comment.body.startsWith(
        `${comment.marker}\n## 🪰 Gadfly review — \`claude-code/opus\` (claude-code) — Minor issues\n`,
      ),
    ).toBe(true);
    // Each lens as published: no VERDICT line, no heading as large as the title.
    for (const lens of opus().lenses) {
      expect(comment.body).toContain(escapeMarkdownBlock(publishedLensText(lens)).split("\n")[0]);
    }
    expect(comment.body).toContain("\n**Security review**\n");
    // Only the comment's own title is a heading that large.
    expect(comment.body.match(/^#{1,3} /gm)).toHaveLength(1);
    expect(comment.body).not.toContain("truncated");
  });

  it("cuts the longest lens texts first and says how much it cut", () => {
    const model = opus();
    const [first, ...rest] = model.lenses;
    if (first === undefined) throw new Error("fixture");
    const long = { ...first, text: `Start.\n${"long line of review text\n".repeat(2_000)}` };
    const comment = renderModelOverflowComment(
      { ...model, lenses: [long, ...rest] },
      { lenses: LENS_TITLES, maxLength: 20_000 },
    );
    expect(comment.body.length).toBeLessThanOrEqual(20_000);
    expect(comment.body.match(/… truncated/g)).toHaveLength(1);
    expect(comment.body).toMatch(
      /Start\.\nlong line[\s\S]*_… truncated \([\d,]+ characters omitted\)_/,
    );
    // The short lenses were left whole.
    for (const lens of rest) {
      expect(comment.body).toContain(escapeMarkdownBlock(publishedLensText(lens)));
    }
  });

  it("shows fewer lenses, counting the rest, when not even their headings fit", () => {
    const base = opus();
    const lenses = Array.from({ length: 80 }, (_, i) =>
      pageLensReport(base.model, base.provider, `custom-lens-${i}`, { text: "x".repeat(500) }),
    );
    const comment = renderModelOverflowComment(
      { ...base, lenses },
      { lenses: LENS_TITLES, maxLength: 3_000 },
    );
    expect(comment.body.length).toBeLessThanOrEqual(3_000);
    expect(comment.body).toMatch(/_… and \d+ more lenses, not shown: comment size limit\._/);
    expect(comment.body.endsWith("Advisory only — does not block merge.</sub>\n")).toBe(true);
  });

  it("encodes a model id so that it cannot close its marker", () => {
    expect(modelCommentMarker("evil--><b>x")).toBe("<!-- gadfly-model:evil%2D-%3E%3Cb%3Ex -->");
  });
});
