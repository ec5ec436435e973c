import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ROUND_TRANSITIONS, type RoundTransition } from "../../src/run/round-machine.js";

/*
 * ARCHITECTURE.md draws the round's state machine as a table a newcomer reads before the code.
 * A transition changed in run/round-machine.ts without its row would teach the wrong machine, so
 * every row must say what the table in the code says, and every transition must have a row.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const ROW = /^\| `([a-z-]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \| (yes|no) \|$/gm;

function documentedRows(): Map<string, string[]> {
  const text = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
  return new Map([...text.matchAll(ROW)].map((match) => [match[1] ?? "", match.slice(2, 7)]));
}

function expectedRow(name: RoundTransition): string[] {
  const rule = ROUND_TRANSITIONS[name];
  return [
    rule.from.join(", ") || "—",
    rule.to ?? "(same)",
    rule.by,
    rule.guards.join(", ") || "—",
    rule.spendsAttempt ? "yes" : "no",
  ];
}

describe("the round machine in ARCHITECTURE.md", () => {
  const rows = documentedRows();

  it("has a row for every transition and none for a transition that does not exist", () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(ROUND_TRANSITIONS).sort());
  });

  it("says for each what the code's table says", () => {
    for (const name of Object.keys(ROUND_TRANSITIONS) as RoundTransition[]) {
      expect(
        (rows.get(name) ?? []).map((cell) => cell.trim()),
        name,
      ).toEqual(expectedRow(name));
    }
  });
});
