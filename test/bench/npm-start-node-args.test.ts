import { describe, expect, it } from "vitest";
import { npmStartNodeArgs } from "../../bench/npm-start-node-args.js";

const withStart = (start: string) => JSON.stringify({ scripts: { start } });

describe("npmStartNodeArgs", () => {
  it("reads the node flags between `node` and dist/main.js", () => {
    expect(npmStartNodeArgs(withStart("node dist/main.js"))).toEqual([]);
    expect(
      npmStartNodeArgs(withStart("node --max-semi-space-size=2 --optimize-for-size dist/main.js")),
    ).toEqual(["--max-semi-space-size=2", "--optimize-for-size"]);
  });

  it("refuses a start script the benches could not reproduce", () => {
    for (const start of [
      "",
      "tsx src/main.ts",
      "node dist/cli/main.js",
      "NODE_OPTIONS=--max-semi-space-size=2 node dist/main.js",
      "node --max-semi-space-size=2 dist/main.js && echo done",
      "node -r ./preload.cjs dist/main.js",
      'node --title="a b" dist/main.js',
    ]) {
      expect(() => npmStartNodeArgs(withStart(start)), start).toThrow(/start script/);
    }
    expect(() => npmStartNodeArgs("{}")).toThrow(/start script/);
  });

  it("reads this package's start script", () => {
    expect(() => npmStartNodeArgs()).not.toThrow();
  });
});
