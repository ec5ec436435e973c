import { describe, expect, it } from "vitest";
import type { Consensus } from "../../src/consensus/consensus.js";
import { CHECK_RUN_OUTPUT_LIMIT } from "../../src/render/body-limit.js";
import { renderCheckRunOutput } from "../../src/render/render-check-run-output.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";
import { referenceConsensus } from "./reference-page.js";

describe("renderCheckRunOutput", () => {
  it("titles the check with the verdict and summarises with the consensus tables", () => {
    const output = renderCheckRunOutput(referenceConsensus(), { lenses: LENS_TITLES });
    expect(output.title).toBe("Minor issues");
    expect(output.summary).toContain(
      "**Verdict: Minor issues** · 6 findings (2 with multi-model agreement)",
    );
    expect(output.summary).toContain("| ⚪ nit | Empty isWeakFinal case");
    expect(output.summary).not.toContain("gadfly-consensus");
    expect(output.text).toContain(
      "- **kimi-k2.6:cloud** (ollama-cloud) — Minor issues\n  - 🔒 Security — No material issues found",
    );
  });

  it("fits GitHub's limit with thousands of findings", () => {
    const reference = referenceConsensus();
    const [cluster] = reference.clusters;
    if (cluster === undefined) throw new Error("fixture");
    const consensus: Consensus = {
      ...reference,
      clusters: Array.from({ length: 5_000 }, (_, i) => ({ ...cluster, fingerprint: `fp-${i}` })),
    };
    const output = renderCheckRunOutput(consensus, { lenses: LENS_TITLES });
    expect(output.summary.length).toBeLessThanOrEqual(CHECK_RUN_OUTPUT_LIMIT);
    expect(output.summary).toMatch(/… and [\d,]+ more multi-model findings, not shown/);
  });
});
