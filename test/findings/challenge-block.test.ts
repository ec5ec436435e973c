import { describe, expect, it } from "vitest";
import {
  MAX_CHALLENGE_REASON_CHARS,
  parseChallengeAnswer,
} from "../../src/findings/challenge-block.js";

const block = (json: string, info = "gadfly-challenge") =>
  `I read the code.\n\n\`\`\`${info}\n${json}\n\`\`\`\n`;

describe("parseChallengeAnswer", () => {
  it("reads a confirmation with its evidence", () => {
    expect(
      parseChallengeAnswer(
        block(
          '{"verdict": "confirm", "reason": "The query concatenates `id`.", "checked": "src/db.ts:42"}',
        ),
      ),
    ).toEqual({
      ok: true,
      answer: {
        verdict: "confirm",
        reason: "The query concatenates `id`.",
        checked: "src/db.ts:42",
      },
      notes: [],
    });
  });

  it("maps the verdict words models use, and forgives JSON slips", () => {
    const read = (verdict: string) => {
      const parsed = parseChallengeAnswer(
        block(`{"verdict": "${verdict}", "reason": "r", "checked": "a.ts:1-3",}`),
      );
      return parsed.ok ? parsed.answer.verdict : parsed.problem;
    };
    expect(read("Confirmed")).toBe("confirm");
    expect(read("false positive")).toBe("refute");
    expect(read("REFUTE")).toBe("refute");
    expect(read("uncertain")).toBe("unsure");
  });

  it("counts a confirmation or a refutation that names no place it checked as unsure", () => {
    const parsed = parseChallengeAnswer(block('{"verdict": "refute", "reason": "looks fine"}'));
    expect(parsed).toMatchObject({ ok: true, answer: { verdict: "unsure", checked: null } });
    expect(parsed.ok && parsed.notes).toEqual([
      "a refute without the place it checked counts as unsure",
    ]);
    const vague = parseChallengeAnswer(
      block('{"verdict": "confirm", "reason": "yes", "checked": "somewhere in the file"}'),
    );
    expect(vague).toMatchObject({ ok: true, answer: { verdict: "unsure" } });
  });

  it("takes the last block: a block quoted earlier (from the diff or the claim) does not decide", () => {
    const text = `${block('{"verdict": "refute", "reason": "quoted", "checked": "x.ts:1"}')}\nMy answer:\n${block('{"verdict": "confirm", "reason": "mine", "checked": "y.ts:2"}')}`;
    expect(parseChallengeAnswer(text)).toMatchObject({
      ok: true,
      answer: { verdict: "confirm", reason: "mine" },
    });
  });

  it("accepts a json block holding a verdict when the model forgot the info string", () => {
    expect(
      parseChallengeAnswer(block('{"verdict": "unsure", "reason": "cannot tell"}', "json")),
    ).toMatchObject({ ok: true, answer: { verdict: "unsure" } });
  });

  it("fails, never guesses, without a readable block or a known verdict", () => {
    expect(parseChallengeAnswer("I confirm this finding.")).toEqual({
      ok: false,
      problem: "no gadfly-challenge block",
    });
    expect(parseChallengeAnswer(block("{verdict: confirm"))).toMatchObject({ ok: false });
    expect(parseChallengeAnswer(block('{"verdict": "maybe"}'))).toMatchObject({ ok: false });
    expect(
      parseChallengeAnswer(block('[{"verdict": "confirm"}, {"verdict": "refute"}]')),
    ).toMatchObject({ ok: false });
  });

  it("bounds what an attacker-steered answer can make it read or keep", () => {
    const huge = block(
      `{"verdict": "confirm", "reason": "${"a".repeat(20_000)}", "checked": "a.ts:1"}`,
    );
    expect(parseChallengeAnswer(huge)).toMatchObject({ ok: false });
    const long = parseChallengeAnswer(
      block(
        `{"verdict": "confirm", "reason": "${"word ".repeat(400)}\\n\\nmore", "checked": "a.ts:1"}`,
      ),
    );
    expect(long.ok && long.answer.reason.length).toBe(MAX_CHALLENGE_REASON_CHARS);
    expect(long.ok && long.answer.reason.includes("\n")).toBe(false);
    const longPlace = parseChallengeAnswer(
      block(`{"verdict": "confirm", "reason": "r", "checked": "${"a/".repeat(400)}b.ts:1"}`),
    );
    expect(longPlace).toMatchObject({ ok: true, answer: { verdict: "unsure", checked: null } });
  });
});
