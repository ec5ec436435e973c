import { describe, expect, it } from "vitest";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { renderModelOverflowComment } from "../../src/render/render-model-overflow-comment.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";
import { referenceConsensus } from "./reference-page.js";

const withBlock = `I read the file.\n\nVERDICT: Minor issues\n\`\`\`gadfly-findings\n[{"file":"a.ts","line":1,"severity":"low","title":"t","body":"b"}]\n\`\`\``;

function consensusWithBlocks() {
  const consensus = referenceConsensus();
  return {
    ...consensus,
    models: consensus.models.map((model) => ({
      ...model,
      lenses: model.lenses.map((lens) => ({ ...lens, text: withBlock })),
    })),
  };
}

describe("published lens text", () => {
  it("shows the prose and the verdict but not the findings JSON", () => {
    const { body } = renderConsensusComment(consensusWithBlocks(), { lenses: LENS_TITLES });
    expect(body).toContain("I read the file.");
    // The lens's verdict is in its summary line; its own VERDICT line is not repeated.
    expect(body).not.toContain("VERDICT: Minor issues");
    expect(body).not.toContain("gadfly-findings");
    const model = consensusWithBlocks().models[0];
    if (model === undefined) throw new Error("no model");
    expect(renderModelOverflowComment(model, { lenses: LENS_TITLES }).body).not.toContain(
      "gadfly-findings",
    );
  });
});
