import { describe, expect, it } from "vitest";
import { fingerprint } from "../../src/consensus/fingerprint.js";

describe("fingerprint", () => {
  const title = "Missing null check on `cluster.representative`";

  it("is a short hex string, the same for the same file and title", () => {
    expect(fingerprint("src/a.ts", title)).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprint("src/a.ts", title)).toBe(fingerprint("src/a.ts", title));
  });

  it("ignores casing, inflection, punctuation and word order", () => {
    expect(fingerprint("src/a.ts", "missing NULL checks on `cluster.representative`.")).toBe(
      fingerprint("src/a.ts", title),
    );
    expect(fingerprint("src/a.ts", "`cluster.representative`: null check missing")).toBe(
      fingerprint("src/a.ts", title),
    );
  });

  it("ignores line references in the title (lines move between rounds)", () => {
    expect(fingerprint("src/a.ts", `${title} (a.ts:10)`)).toBe(
      fingerprint("src/a.ts", `${title} (a.ts:50)`),
    );
  });

  it("differs for another file or another problem", () => {
    expect(fingerprint("src/b.ts", title)).not.toBe(fingerprint("src/a.ts", title));
    expect(fingerprint("src/a.ts", "Missing null check on `model.verdict`")).not.toBe(
      fingerprint("src/a.ts", title),
    );
  });
});
