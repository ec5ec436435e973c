import { describe, expect, it } from "vitest";
import { dismissalGlob, matchesDismissal } from "../../src/consensus/match-dismissal.js";

const dismissed = {
  file: "src/settings.js",
  title: "Admin token compared with `==` leaks timing and coerces types",
};

describe("matchesDismissal", () => {
  it("derives the glob from the file's directory and extension", () => {
    expect(dismissalGlob("src/api/users.ts")).toBe("src/api/*.ts");
    expect(dismissalGlob("Makefile")).toBe("*");
    expect(dismissalGlob(".env")).toBe("*");
  });

  it("matches the same complaint in a sibling file, reworded", () => {
    expect(
      matchesDismissal(
        { file: "src/config.js", title: "Admin token compared with == leaks timing" },
        dismissed,
      ),
    ).toBe(true);
    expect(matchesDismissal({ file: "src/settings.js", title: dismissed.title }, dismissed)).toBe(
      true,
    );
  });

  it("does not match another complaint, another directory or another extension", () => {
    expect(
      matchesDismissal(
        { file: "src/settings.js", title: "`Number(process.env.RETRIES)` is NaN when unset" },
        dismissed,
      ),
    ).toBe(false);
    expect(matchesDismissal({ file: "lib/settings.js", title: dismissed.title }, dismissed)).toBe(
      false,
    );
    expect(
      matchesDismissal({ file: "src/deep/settings.js", title: dismissed.title }, dismissed),
    ).toBe(false);
    expect(matchesDismissal({ file: "src/settings.ts", title: dismissed.title }, dismissed)).toBe(
      false,
    );
  });
});
