import { describe, expect, it } from "vitest";
import { memoizeRedactor } from "../../src/llm/memoize-redactor.js";
import { createRedactor } from "../../src/llm/redact-secrets.js";

const SECRET = "k3y-VALUE-that-is-long";

/** A redactor that counts the texts it was asked to redact. */
function counting() {
  const asked: string[] = [];
  const inner = createRedactor([SECRET]);
  const redact = (text: string) => {
    asked.push(text);
    return inner(text);
  };
  return { redact, asked };
}

const long = (fill: string, length = 2000) => fill.repeat(Math.ceil(length / fill.length));

describe("memoizeRedactor", () => {
  it("answers as the redactor does, short texts and long, with and without secrets", () => {
    const plain = createRedactor([SECRET]);
    const memo = memoizeRedactor(plain, { minimumLength: 10 });
    for (const text of [
      "",
      "short",
      `a ${SECRET} b`,
      long(`line ${SECRET} postgres://u:p@db\n`),
      long("nothing to hide\n"),
    ]) {
      expect(memo(text)).toBe(plain(text));
      expect(memo(text)).toBe(plain(text));
    }
  });

  it("redacts a long text once however often it is asked for, a copy of it included", () => {
    const { redact, asked } = counting();
    const memo = memoizeRedactor(redact);
    const opening = long(`the diff summary ${SECRET}\n`);
    for (let lens = 0; lens < 20; lens += 1) {
      // Each lens builds its own copy of the opening: equal text, another string.
      expect(memo(` ${opening}`.slice(1))).not.toContain(SECRET);
    }
    expect(asked).toHaveLength(1);
  });

  it("redacts short texts every time instead of keeping them", () => {
    const { redact, asked } = counting();
    const memo = memoizeRedactor(redact, { minimumLength: 100 });
    memo("a short line");
    memo("a short line");
    expect(asked).toEqual(["a short line", "a short line"]);
  });

  it("keeps at most maxEntries texts, dropping the least recently asked for", () => {
    const { redact, asked } = counting();
    const memo = memoizeRedactor(redact, { minimumLength: 1, maxEntries: 2 });
    memo("opening");
    memo("first file");
    memo("opening"); // now the most recent
    memo("second file"); // drops "first file"
    asked.length = 0;
    memo("opening");
    memo("second file");
    expect(asked).toEqual([]);
    memo("first file");
    expect(asked).toEqual(["first file"]);
  });

  it("keeps at most maxCharacters of texts and redactions, and never a text larger than that", () => {
    const { redact, asked } = counting();
    const memo = memoizeRedactor(redact, { minimumLength: 1, maxCharacters: 100 });
    const huge = long("x", 101);
    const sixty = long("a", 60);
    const fifty = long("b", 50);
    memo(sixty);
    // Too large to keep: asked for each time, and what is kept stays.
    memo(huge);
    memo(huge);
    memo(sixty);
    expect(asked).toEqual([sixty, huge, huge]);
    asked.length = 0;
    memo(fifty); // 110 characters: drops sixty
    memo(fifty);
    memo(sixty);
    expect(asked).toEqual([fifty, sixty]);
  });
});
