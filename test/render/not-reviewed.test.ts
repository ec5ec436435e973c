import { describe, expect, it } from "vitest";
import type { Consensus } from "../../src/consensus/consensus.js";
import { renderCheckRunOutput } from "../../src/render/render-check-run-output.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";
import { referenceConsensus } from "./reference-page.js";

const partial = (): Consensus => ({
  ...referenceConsensus(),
  notReviewed: [
    { path: "src/app.js", reason: "not-text" },
    { path: "package-lock.json", reason: "lockfile" },
    { path: "src/`tick`.ts", reason: "generated" },
  ],
  lockfiles: {
    checked: ["package-lock.json"],
    unchecked: [],
    notes: [
      { path: "package-lock.json", line: 12, kind: "host", detail: "evil.example.com" },
      { path: "package-lock.json", line: 18, kind: "install-script", detail: "node_modules/x" },
    ],
    notesOmitted: 0,
  },
});

describe("files not reviewed, published", () => {
  it("the check's title says partial and its summary names every file and the lockfile check", () => {
    const output = renderCheckRunOutput(partial(), { lenses: LENS_TITLES });
    expect(output.title).toBe("Minor issues (partial: 3 files not reviewed)");
    expect(output.summary).toContain("**Not reviewed:** 3 files, so this review is partial.");
    expect(output.summary).toContain(
      "- `src/app.js` — a source file git treats as binary (NUL byte): no text diff",
    );
    expect(output.summary).toContain(
      "- `package-lock.json`:12 — fetches from a new host `evil.example.com`",
    );
    expect(output.summary).toContain(
      "- `package-lock.json`:18 — adds an install script (`node_modules/x`)",
    );
    // An author's path cannot break out of its code span.
    expect(output.summary).not.toContain("- `src/`tick`.ts`");
  });

  it("the consensus comment names them too; a whole review says nothing of it", () => {
    const { body } = renderConsensusComment(partial(), { lenses: LENS_TITLES });
    expect(body).toContain("**Not reviewed:** 3 files, so this review is partial.");
    expect(body).toContain("**Lockfile check** (1 lockfile, no model reads them):");
    const whole = renderConsensusComment(referenceConsensus(), { lenses: LENS_TITLES }).body;
    expect(whole).not.toContain("Not reviewed");
    expect(renderCheckRunOutput(referenceConsensus(), { lenses: LENS_TITLES }).title).toBe(
      "Minor issues",
    );
  });

  it("files the repository's config ignores are named, but do not make the review partial", () => {
    const ignored: Consensus = {
      ...referenceConsensus(),
      notReviewed: [{ path: "docs/guide.md", reason: "ignored" }],
    };
    const output = renderCheckRunOutput(ignored, { lenses: LENS_TITLES });
    expect(output.title).toBe("Minor issues");
    expect(output.summary).toContain(
      "**Not reviewed:** 1 file, each ignored by the repository's config.",
    );
    expect(output.summary).toContain("- `docs/guide.md`");
    // One gap among them, and the review is partial again.
    const mixed: Consensus = {
      ...ignored,
      notReviewed: [...(ignored.notReviewed ?? []), { path: "src/big.ts", reason: "too-large" }],
    };
    expect(renderCheckRunOutput(mixed, { lenses: LENS_TITLES }).title).toBe(
      "Minor issues (partial: 1 file not reviewed)",
    );
    expect(renderConsensusComment(mixed, { lenses: LENS_TITLES }).body).toContain(
      "**Not reviewed:** 2 files, so this review is partial.",
    );
  });
});
