import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvalJudge, MAX_JUDGED_PAIRS_PER_ENTRY } from "../../src/cli/eval-judge.js";
import { AppConfig } from "../../src/config/schema.js";
import type { GoldComment } from "../../src/eval/eval-entry.js";
import type { JudgedFinding } from "../../src/eval/judge-prompt.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fakes/fake-openai-server.js";

let openai: FakeOpenAIServer;
let dir: string;

beforeAll(async () => {
  openai = await startFakeOpenAIServer({ apiKey: "sk-j" });
  // Says "the same" for every pair: what counts is how many it is asked.
  openai.script("judge", () => ({ text: '```gadfly-judge\n{"same": true, "reason": "r"}\n```' }));
  dir = await mkdtemp(join(tmpdir(), "gadfly-judge-"));
});
afterAll(async () => {
  await openai?.close();
  await rm(dir, { recursive: true, force: true });
});

const config = () =>
  AppConfig.parse({
    providers: [
      { name: "cloud", type: "openai", baseURL: `${openai.url}/v1`, apiKeyEnv: "J_KEY" },
      { name: "cli", type: "command", command: ["claude", "-p"] },
    ],
    models: [
      { id: "judge", provider: "cloud" },
      { id: "agent", provider: "cli" },
    ],
  });

const gold: GoldComment = { path: "a.ts", side: "right", fromLine: 1, toLine: 1, category: null };
const pair = (line: number): { finding: JudgedFinding; gold: GoldComment } => ({
  finding: { path: "a.ts", line, title: `finding ${line}`, body: "b" },
  gold,
});

describe("the eval judge", () => {
  it(`asks at most ${MAX_JUDGED_PAIRS_PER_ENTRY} pairs of one entry; the rest are no match, said once`, async () => {
    const judge = createEvalJudge({
      config: config(),
      modelId: "judge",
      env: { J_KEY: "sk-j" },
      cacheDir: join(dir, "cap"),
    });
    try {
      const pairs = Array.from({ length: MAX_JUDGED_PAIRS_PER_ENTRY + 3 }, (_, i) => pair(i + 1));
      const before = openai.requests.length;
      const { accepts, figures } = await judge.judge(pairs, new AbortController().signal);
      expect(openai.requests.length - before).toBe(MAX_JUDGED_PAIRS_PER_ENTRY);
      expect(figures).toMatchObject({ pairs: MAX_JUDGED_PAIRS_PER_ENTRY, same: 200, failed: 3 });
      expect(figures.problems).toEqual([
        `more than ${MAX_JUDGED_PAIRS_PER_ENTRY} pairs in one entry: the rest were not judged (no match)`,
      ]);
      const last = pairs.at(-1);
      if (last === undefined) throw new Error("no pairs");
      expect(accepts(last.finding, last.gold)).toBe(false);
      expect(accepts(pairs[0]?.finding as JudgedFinding, gold)).toBe(true);
      expect((await readdir(join(dir, "cap"))).length).toBe(MAX_JUDGED_PAIRS_PER_ENTRY);
    } finally {
      judge.close();
    }
  });

  it("refuses a model the config lacks, and an agent CLI", () => {
    const make = (modelId: string) =>
      createEvalJudge({ config: config(), modelId, env: {}, cacheDir: dir });
    expect(() => make("nope")).toThrow(/--judge: unknown model "nope"/);
    expect(() => make("agent")).toThrow(/not a chat model/);
  });
});
