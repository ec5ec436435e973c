import { describe, expect, it } from "vitest";
import { matchVerifiedFindings } from "../../src/agent/match-verified-findings.js";
import type { LensFinding } from "../../src/findings/schema.js";
import { offByOne, sqlInjection } from "./helpers/review-fixtures.js";

const elsewhere: LensFinding = {
  ...offByOne,
  file: "lib/format.js",
  line: 2,
  endLine: 2,
  title: "Crash on null",
};

describe("matchVerifiedFindings", () => {
  it("keeps the originals that the verification lists, drops the rest", () => {
    expect(matchVerifiedFindings([sqlInjection, offByOne], [offByOne])).toEqual({
      surviving: [offByOne],
      dropped: [sqlInjection],
      added: [],
    });
  });

  it("pairs a survivor by title when its line moved, and by nearby line when its title changed", () => {
    const moved = { ...sqlInjection, line: 30, endLine: 30 };
    const retitled = {
      ...offByOne,
      line: 15,
      endLine: 15,
      title: "Off by one",
      severity: "low" as const,
    };
    const result = matchVerifiedFindings([sqlInjection, offByOne], [retitled, moved]);
    expect(result.surviving).toEqual([sqlInjection, offByOne]);
    expect(result.added).toEqual([]);
  });

  it("sets aside entries that match nothing, and uses each original once", () => {
    const twin = { ...offByOne, title: "Another title", line: 12, endLine: 12 };
    const result = matchVerifiedFindings([offByOne], [offByOne, twin, elsewhere]);
    expect(result.surviving).toEqual([offByOne]);
    expect(result.added).toEqual([twin, elsewhere]);
  });

  it("does not pair findings of different files", () => {
    const result = matchVerifiedFindings([offByOne], [{ ...offByOne, file: "src/server.js" }]);
    expect(result.dropped).toEqual([offByOne]);
    expect(result.added).toHaveLength(1);
  });
});
