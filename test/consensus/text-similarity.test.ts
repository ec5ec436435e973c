import { describe, expect, it } from "vitest";
import { textProfile } from "../../src/consensus/text-profile.js";
import { textSimilarity, textVectors } from "../../src/consensus/text-similarity.js";

const vectors = (title: string, body = "") => textVectors(textProfile({ title, body }));

describe("textSimilarity", () => {
  it("is near 1 for the same text, 0 for texts with nothing in common, and symmetric", () => {
    const a = vectors("`resp.Body` is never closed", "Add `defer resp.Body.Close()`.");
    const b = vectors("Magic number 65536", "Name the constant.");
    // Not exactly 1: half the score compares the title's words with the whole text.
    expect(textSimilarity(a, a)).toBeGreaterThan(0.9);
    expect(textSimilarity(vectors("same title"), vectors("same title"))).toBeCloseTo(1, 5);
    expect(textSimilarity(a, b)).toBe(0);
    expect(textSimilarity(a, b)).toBe(textSimilarity(b, a));
  });

  it("scores a paraphrase of the same problem above a different problem on the same code", () => {
    const closed = vectors("`resp.Body` is never closed", "Add `defer resp.Body.Close()`.");
    const paraphrase = vectors("Response body leaked", "The body is not closed on error paths.");
    const other = vectors("`resp.Body` read without a size limit", "Wrap it in io.LimitReader.");
    expect(textSimilarity(closed, paraphrase)).toBeGreaterThan(textSimilarity(paraphrase, other));
  });

  it("is 0 when a text has no tokens", () => {
    expect(textSimilarity(vectors(""), vectors("anything at all here"))).toBe(0);
  });

  it("applies a token factor", () => {
    const profileA = textProfile({ title: "token leaked into logs", body: "" });
    const profileB = textProfile({ title: "token compared in constant time", body: "" });
    const plain = textSimilarity(textVectors(profileA), textVectors(profileB));
    const discounted = (token: string) => (token === "w:token" ? 0.1 : 1);
    const scaled = textSimilarity(
      textVectors(profileA, discounted),
      textVectors(profileB, discounted),
    );
    expect(scaled).toBeLessThan(plain);
  });
});
