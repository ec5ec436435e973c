import { describe, expect, it } from "vitest";
import {
  findingCommentMarker,
  findingMarkerIn,
  isModelCommentMarker,
  MARKERS,
  modelCommentMarker,
  startsWithMarker,
} from "../../src/render/markers.js";

describe("marker matching", () => {
  it("reads back the fingerprint it wrote, however odd its characters", () => {
    for (const fingerprint of ["a1b2", "src/x.ts:12:sql-injection", "weird --> value %41 ü"]) {
      const body = `A finding.\n\n${findingCommentMarker(fingerprint)}`;
      expect(findingMarkerIn(body)).toBe(fingerprint);
    }
  });

  it("answers null, without throwing, for a marker whose encoding a hand edit broke", () => {
    expect(findingMarkerIn("x <!-- gadfly-finding:abc%E0%A4 -->")).toBeNull();
    expect(findingMarkerIn("x <!-- gadfly-finding:%zz -->")).toBeNull();
    expect(findingMarkerIn("no marker here")).toBeNull();
  });

  it("takes a sticky marker only as the whole first line", () => {
    const marker = MARKERS.consensus;
    expect(startsWithMarker(`${marker}\nbody`, marker)).toBe(true);
    expect(startsWithMarker(`${marker}\r\nbody`, marker)).toBe(true);
    expect(startsWithMarker(marker, marker)).toBe(true);
    expect(startsWithMarker(`${marker} trailing\nbody`, marker)).toBe(false);
    expect(startsWithMarker(`quoted ${marker}\n`, marker)).toBe(false);
  });

  it("recognises any model's overflow marker and nothing else", () => {
    expect(isModelCommentMarker(modelCommentMarker("gpt-5.2"))).toBe(true);
    expect(isModelCommentMarker(modelCommentMarker("a b--c"))).toBe(true);
    expect(isModelCommentMarker(MARKERS.consensus)).toBe(false);
    expect(isModelCommentMarker(`${modelCommentMarker("x")} extra`)).toBe(false);
  });
});
