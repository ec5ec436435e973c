import { describe, expect, it } from "vitest";
import { canonicalWord } from "../../src/consensus/canonical-word.js";

describe("canonicalWord", () => {
  it("drops stop words, review boilerplate, short fragments and numbers", () => {
    for (const word of ["the", "Should", "function", "consider", "ab", "42", "2024"]) {
      expect(canonicalWord(word)).toBeNull();
    }
  });

  it("maps inflections of one word onto one stem", () => {
    const forms = ["duplicate", "duplicated", "duplicates", "duplicating", "duplication"];
    expect(new Set(forms.map(canonicalWord)).size).toBe(1);
    expect(canonicalWord("handling")).toBe(canonicalWord("handled"));
    expect(canonicalWord("logged")).toBe(canonicalWord("log"));
    expect(canonicalWord("comparison")).toBe(canonicalWord("compared"));
  });

  it("maps review synonyms onto one word", () => {
    expect(canonicalWord("copy")).toBe(canonicalWord("duplicated"));
    expect(canonicalWord("crashes")).toBe(canonicalWord("throws"));
    expect(canonicalWord("undefined")).toBe(canonicalWord("null"));
    expect(canonicalWord("swallowed")).toBe(canonicalWord("ignored"));
  });

  it("reads negated participles by their topic", () => {
    expect(canonicalWord("unescaped")).toBe(canonicalWord("escaping"));
    expect(canonicalWord("unawaited")).toBe(canonicalWord("await"));
  });

  it("keeps distinct words distinct", () => {
    expect(canonicalWord("timeout")).not.toBe(canonicalWord("token"));
    expect(canonicalWord("signature")).not.toBe(canonicalWord("sign"));
  });

  it("answers the same when asked again (memoised)", () => {
    expect(canonicalWord("Validation")).toBe(canonicalWord("Validation"));
    expect(canonicalWord("Validation")).toBe(canonicalWord("validates"));
  });
});
