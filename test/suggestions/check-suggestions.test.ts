import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  candidatesOf,
  checkSuggestions,
  MAX_SUGGESTION_CHECKS,
  SyntaxChecker,
} from "../../src/suggestions/index.js";
import { cluster } from "../builders/consensus.js";
import { makeFinding } from "../builders/finding.js";
import { indexWithHunks } from "./suggestion-fixtures.js";

const HEAD = "export function f(a: number) {\n  const b = a + 1;\n  return b;\n}\n";
const syntax = new SyntaxChecker();

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "gadfly-suggestions-"));
  await mkdir(join(workspace, "src"));
  await writeFile(join(workspace, "src/f.ts"), HEAD);
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function proposal(model: string, suggestion: string, line = 2, endLine = line) {
  return makeFinding({ file: "src/f.ts", line, endLine, model, suggestion, title: "Off by one" });
}

async function outcomeOf(findings: ReturnType<typeof proposal>[]) {
  const result = await checkSuggestions([cluster("fp", findings)], {
    workspaceDir: workspace,
    index: indexWithHunks("src/f.ts", [[1, 4]]),
    syntax,
  });
  return result.get("fp");
}

describe("candidatesOf", () => {
  it("groups the same replacement (trailing whitespace aside) and ranks by distinct models", () => {
    const candidates = candidatesOf(
      cluster("fp", [
        proposal("a", "  const b = a;"),
        proposal("b", "  const b = a - 1;"),
        proposal("c", "  const b = a - 1;  "),
        proposal("c", "  const b = a - 1;"),
      ]),
    );
    expect(candidates.map((entry) => [entry.text.trim(), entry.supporters])).toEqual([
      ["const b = a - 1;", ["b", "c"]],
      ["const b = a;", ["a"]],
    ]);
  });
});

describe("checkSuggestions", () => {
  it("the suggestion most models support wins when it passes", async () => {
    const outcome = await outcomeOf([
      proposal("a", "  const b = a;"),
      proposal("b", "  const b = a - 1;"),
      proposal("c", "  const b = a - 1;"),
    ]);
    expect(outcome).toMatchObject({
      kind: "passed",
      lines: ["  const b = a - 1;"],
      supporters: ["b", "c"],
    });
  });

  it("a less supported one that passes beats a more supported one that fails", async () => {
    const outcome = await outcomeOf([
      proposal("a", "  const b = a;"),
      proposal("b", "  const b = (a;"),
      proposal("c", "  const b = (a;"),
    ]);
    expect(outcome).toMatchObject({ kind: "passed", lines: ["  const b = a;"], supporters: ["a"] });
  });

  it("when none passes, the most supported is shown failed with its reason", async () => {
    const outcome = await outcomeOf([
      proposal("a", "const b = a;"),
      proposal("b", "  const b = (a;"),
      proposal("c", "  const b = (a;"),
    ]);
    expect(outcome).toMatchObject({ kind: "failed", supporters: ["b", "c"] });
    expect(outcome?.kind === "failed" ? outcome.reason : "").toContain("no longer parse");
    expect(outcome?.kind === "failed" ? outcome.original : []).toEqual(["  const b = a + 1;"]);
  });

  it("a cluster without a suggestion gets none", async () => {
    expect(await outcomeOf([makeFinding({ file: "src/f.ts", line: 2 })])).toBeUndefined();
  });

  it("never reads outside the head's tree: a symlink or a missing file fails, said", async () => {
    await writeFile(join(workspace, "secret.ts"), HEAD);
    await symlink(join(workspace, "secret.ts"), join(workspace, "src/link.ts"));
    const link = makeFinding({ file: "src/link.ts", line: 2, suggestion: "  const b = a;" });
    const gone = makeFinding({ file: "src/gone.ts", line: 2, suggestion: "  const b = a;" });
    const result = await checkSuggestions([cluster("link", [link]), cluster("gone", [gone])], {
      workspaceDir: workspace,
      index: indexWithHunks(["src/link.ts", "src/gone.ts"], [[1, 4]]),
      syntax,
    });
    expect(result.get("link")).toMatchObject({
      kind: "failed",
      reason: "the head file could not be read: it is not a regular file at the head.",
    });
    expect(result.get("gone")).toMatchObject({
      kind: "failed",
      reason: "the head file could not be read: it is not in the head's tree.",
    });
  });

  it(`checks at most ${MAX_SUGGESTION_CHECKS} candidates a round, in rank order`, async () => {
    const clusters = Array.from({ length: MAX_SUGGESTION_CHECKS + 5 }, (_, at) =>
      cluster(`fp-${at}`, [proposal("a", `  const b = a + ${at + 2};`)]),
    );
    const result = await checkSuggestions(clusters, {
      workspaceDir: workspace,
      index: indexWithHunks("src/f.ts", [[1, 4]]),
      syntax,
    });
    expect(MAX_SUGGESTION_CHECKS).toBe(60);
    expect(result.size).toBe(60);
    expect(result.has("fp-59")).toBe(true);
    expect(result.has("fp-60")).toBe(false);
  });
});
