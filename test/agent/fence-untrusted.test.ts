import { describe, expect, it } from "vitest";
import { defuseOwnMarkers, fenceText } from "../../src/agent/fence-untrusted.js";

describe("fenceText", () => {
  it("fences with one backtick more than the longest run inside", () => {
    expect(fenceText("a ```` b ` c", "md")).toBe("`````md\na ```` b ` c\n`````");
    expect(fenceText("plain")).toBe("```\nplain\n```");
  });

  it("takes model text with half a million backtick runs (a spread of them overflowed the stack)", () => {
    const text = "`a".repeat(500_000);
    expect(fenceText(text).startsWith("```\n`a`a")).toBe(true);
  });
});

describe("defuseOwnMarkers", () => {
  it("rewrites our comment markers and the findings fence name, and counts them", () => {
    expect(defuseOwnMarkers("<!-- gadfly-status-board --> ```gadfly‑findings")).toEqual({
      text: "&lt;!-- gadfly-status-board --> ```gadfly_findings",
      count: 2,
    });
  });

  it("leaves other HTML comments alone", () => {
    expect(defuseOwnMarkers("<!-- note -->")).toEqual({ text: "<!-- note -->", count: 0 });
  });
});
