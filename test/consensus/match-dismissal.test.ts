import { describe, expect, it } from "vitest";
import { matchesDismissal } from "../../src/consensus/match-dismissal.js";

const dismissed = {
  file: "src/settings.js",
  line: 10,
  endLine: 12,
  title: "Admin token compared with `==` leaks timing and coerces types",
};
const at = (file: string, line: number, title = dismissed.title, context?: string) => ({
  file,
  line,
  endLine: line,
  title,
  context,
});

describe("matchesDismissal", () => {
  it("matches the same complaint at the same place, reworded", () => {
    expect(
      matchesDismissal(
        at("src/settings.js", 11, "Admin token compared with == leaks timing"),
        dismissed,
      ),
    ).toBe(true);
    expect(matchesDismissal(at("src/settings.js", 12), dismissed)).toBe(true);
  });

  it("matches the same complaint about the same normalized code anywhere", () => {
    const withContext = { ...dismissed, context: "abc" };
    expect(matchesDismissal(at("lib/other.ts", 90, dismissed.title, "abc"), withContext)).toBe(
      true,
    );
    expect(matchesDismissal(at("lib/other.ts", 90, dismissed.title, "abd"), withContext)).toBe(
      false,
    );
  });

  it("does not match a sibling file, another place or another complaint", () => {
    expect(matchesDismissal(at("src/config.js", 11), dismissed)).toBe(false);
    expect(matchesDismissal(at("src/settings.js", 13), dismissed)).toBe(false);
    expect(
      matchesDismissal(
        at("src/settings.js", 11, "`Number(process.env.RETRIES)` is NaN when unset"),
        dismissed,
      ),
    ).toBe(false);
  });
});
