import { describe, expect, it } from "vitest";
import { MARKERS } from "../../src/render/markers.js";
import { renderFilterSkip } from "../../src/render/render-filter-skip.js";

const SHA = "0123456789abcdef0123456789abcdef01234567";

describe("renderFilterSkip", () => {
  it("quotes a hostile label without letting its HTML, mentions or markers through", () => {
    const label = "<!-- gadfly-consensus --> @org/admins <img src=x onerror=alert(1)>";
    const output = renderFilterSkip({
      reason: `label "${label}" is skipped (filters.skipLabels)`,
      split: false,
      trigger: "@gadfly review",
      headSha: SHA,
    });
    expect(output.comment).toBeNull();
    expect(output.summary).not.toContain("<img");
    expect(output.summary).not.toContain("<!-- gadfly-consensus -->");
    expect(output.summary).not.toMatch(/(^|\s)@org\/admins/);
    expect(output.summary).toContain("`@gadfly review`");
    expect(output.title.startsWith('Skipped: label "')).toBe(true);
  });

  it("cuts the check's title to 200 characters on a character boundary, on one line", () => {
    const output = renderFilterSkip({
      reason: `label "${"🪰".repeat(300)}\nnext" is skipped`,
      split: false,
      trigger: "@gadfly review",
      headSha: SHA,
    });
    expect([...output.title]).toHaveLength(200);
    expect(output.title.endsWith("🪰…")).toBe(true);
    expect(output.title).not.toContain("\n");
  });

  it("asks to split an oversized pull request in a comment that starts with its marker", () => {
    const output = renderFilterSkip({
      reason: "the pull request is too large to review: 4 files (over 3)",
      split: true,
      trigger: "@bot go",
      headSha: SHA,
    });
    expect(output.comment?.startsWith(`${MARKERS.splitRequest}\n`)).toBe(true);
    expect(output.comment).toContain("4 files (over 3) at `0123456`");
    expect(output.comment).toContain("`@bot go`");
    expect(output.comment).toContain("Advisory only");
  });
});
