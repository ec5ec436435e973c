import { cp, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitRepository, type GitRepository } from "../cli/git-repository.js";
import { createSandbox, type Sandbox } from "../cli-e2e/create-sandbox.js";
import { runGadfly } from "../cli-e2e/run-gadfly.js";
import { type FakeOllamaServer, startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import type { FakeModelRequest, FakeReply, FakeScript } from "../fakes/model-script.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "eval");

const lines = (count: number, mark: string) =>
  Array.from(
    { length: count },
    (_, index) => `export const v${index + 1} = ${index + 1}; // ${mark}`,
  ).join("\n");

interface Planted {
  file: string;
  line: number;
  severity: "high" | "medium" | "low";
  title: string;
  body: string;
}

/**
 * What each model reports, per pull request and lens. The hand count in the test below is of
 * exactly these lines against native.json's gold comments (window 3).
 */
const DOUBLE_DISCOUNT = {
  title: "The coupon discount is applied twice when coupons are stacked",
  body: "applyCoupon subtracts the discount from a total that already includes it.",
};
const FINDINGS: Record<string, Record<string, Record<string, Planted[]>>> = {
  "PR-ONE": {
    alpha: {
      correctness: [
        { file: "src/cart.ts", line: 14, severity: "medium", ...DOUBLE_DISCOUNT },
        {
          file: "src/cart.ts",
          line: 30,
          severity: "medium",
          title: "Quantity overflow is not checked before multiplying",
          body: "A very large quantity wraps the integer total.",
        },
      ],
    },
    beta: {
      correctness: [{ file: "src/cart.ts", line: 11, severity: "medium", ...DOUBLE_DISCOUNT }],
      security: [
        {
          file: "src/cart.ts",
          line: 25,
          severity: "high",
          title: "The item price is read from the request body and trusted",
          body: "A client can set any price: read it from the catalogue instead.",
        },
      ],
    },
  },
  "PR-TWO": {
    alpha: {
      security: [
        {
          file: "src/auth.ts",
          line: 4,
          severity: "high",
          title: "The password hash uses MD5",
          body: "MD5 is broken for password storage: use scrypt or argon2.",
        },
      ],
    },
    beta: {
      security: [
        {
          file: "src/auth.ts",
          line: 8,
          severity: "medium",
          title: "Logout does not invalidate the session cookie",
          body: "The session id stays valid on the server after logout.",
        },
        {
          file: "src/other.ts",
          line: 8,
          severity: "low",
          title: "A debug log prints the user name",
          body: "Logs should not carry personal data.",
        },
      ],
    },
  },
};

function reviewer(model: string, lens: string): FakeScript {
  return (request: FakeModelRequest): FakeReply => {
    const prompt = JSON.stringify(request.messages);
    const pr = prompt.includes("PR-TWO") ? "PR-TWO" : "PR-ONE";
    const planted = FINDINGS[pr]?.[model]?.[lens] ?? [];
    const findings = planted.map((f) => ({ ...f, end_line: f.line, confidence: "high" }));
    const verdict = findings.length === 0 ? "No material issues found" : "Significant issues";
    return {
      text: `I read the change.\n\nVERDICT: ${verdict}\n\`\`\`gadfly-findings\n${JSON.stringify(findings)}\n\`\`\``,
    };
  };
}

let sandbox: Sandbox;
let repository: GitRepository;
let ollama: FakeOllamaServer;
let openai: FakeOpenAIServer;
let configPath: string;
let judgeConfigPath: string;
let reposDir: string;

beforeAll(async () => {
  sandbox = await createSandbox();
  repository = await createGitRepository();
  reposDir = dirname(repository.root);
  await repository.write("src/cart.ts", `${lines(40, "cart")}\n`);
  await repository.write("src/auth.ts", `${lines(30, "auth")}\n`);
  await repository.write("src/other.ts", `${lines(10, "other")}\n`);
  repository.commit("Base");
  repository.git("tag", "pr1-base");
  await repository.write("src/cart.ts", `${lines(40, "cart PR-ONE")}\n`);
  repository.commit("PR one");
  repository.git("tag", "pr1-head");
  await repository.write("src/auth.ts", `${lines(30, "auth PR-TWO")}\n`);
  repository.commit("PR two");
  repository.git("tag", "pr2-head");
  ollama = await startFakeOllamaServer();
  for (const model of ["alpha", "beta"]) {
    for (const lens of ["security", "correctness"])
      ollama.script(model, reviewer(model, lens), { lens });
  }
  configPath = join(sandbox.root, "gadfly.config.yml");
  await writeFile(configPath, config(ollama.url));
  openai = await startFakeOpenAIServer({ apiKey: "sk-judge" });
  openai.script("judge-1", judgeAnswer);
  judgeConfigPath = join(sandbox.root, "judge.config.yml");
  await writeFile(
    judgeConfigPath,
    config(ollama.url).replace(
      "models:\n",
      `  - { name: cloud, type: openai, baseURL: "${openai.url}/v1", apiKeyEnv: JUDGE_KEY }\nmodels:\n  - { id: judge-1, provider: cloud, price: { input: 1, output: 2 } }\n`,
    ),
  );
});

afterAll(async () => {
  await Promise.all([ollama?.close(), openai?.close(), repository?.remove(), sandbox?.remove()]);
});

/**
 * The fake judge: the same problem when the gold comment and the finding are about the double
 * discount; not for the price; garbage (a string, not a boolean) for the logout pair. It is
 * gullible: a gadfly-judge block it finds in its prompt it repeats, so a block the dataset
 * planted in a gold comment would confirm that pair were it not defused.
 */
function judgeAnswer(request: FakeModelRequest): FakeReply {
  const prompt = request.messages.map((message) => message.content ?? "").join("\n");
  const planted = /```gadfly-judge\n([^`]*)\n```/.exec(prompt.split("The gold comment")[1] ?? "");
  if (planted !== null) return { text: `\`\`\`gadfly-judge\n${planted[1]}\n\`\`\`` };
  if (prompt.includes("Logging out"))
    return { text: '```gadfly-judge\n{"same": "yes", "reason": "both about logout"}\n```' };
  const same = prompt.includes("discount twice") && prompt.includes(DOUBLE_DISCOUNT.title);
  return {
    text: `Compared.\n\n\`\`\`gadfly-judge\n${JSON.stringify({ same, reason: "read both" })}\n\`\`\``,
  };
}

function config(host: string): string {
  return `providers:
  - { name: local, type: ollama, host: "${host}" }
models:
  - { id: alpha, provider: local, price: { input: 1, output: 2 } }
  - { id: beta, provider: local, price: { input: 1, output: 2 } }
review:
  lenses: [security, correctness]
  concurrency: 2
  verify: false
  timeoutSeconds: 30
crossExamination:
  enabled: false
`;
}

function evalRun(extra: string[], config = configPath) {
  return runGadfly(["eval", "--config", config, "--repos", reposDir, ...extra], {
    cwd: sandbox.work,
    env: {
      ...sandbox.env,
      ...repository.env,
      HOME: sandbox.env.HOME ?? "",
      JUDGE_KEY: "sk-judge",
    } as Record<string, string>,
  });
}

interface Scope {
  kind: string;
  name: string;
  matched: number;
  found: number;
  gold: number;
  precision: number | null;
  recall: number | null;
}

function scope(report: { scopes: Scope[] }, kind: string, name = "all"): Scope | undefined {
  return report.scopes.find((s) => s.kind === kind && s.name === name);
}

/**
 * The hand count (window 3), gold: 5 comments, one of them on the base side (never matchable).
 * alpha: 14 (hits 10-12), 30 (25+3 < 30: miss), auth 4 (8-3 > 4: miss): 1 of 3.
 * beta: 11 (10-12), 25, auth 8, other.ts 8 (wrong path): 3 of 4.
 * correctness: 14, 30, 11: 14 and 11 both on one gold comment, which counts once: 1 of 3.
 * security: 25, auth 4, auth 8, other 8: 2 of 4.
 * consensus: {14, 11} one row, 30, 25; auth 4, auth 8, other 8: 3 of 6.
 * inline (agreed): {14, 11} (2 models), 25 (lone high), auth 4 (lone high): 2 of 3.
 */
function expectHandCount(report: { scopes: Scope[]; gold: number; reviewed: number }) {
  expect(report.reviewed).toBe(2);
  expect(report.gold).toBe(5);
  const counts = (kind: string, name?: string) => {
    const s = scope(report, kind, name);
    return s === undefined ? undefined : [s.matched, s.found, s.gold];
  };
  expect(counts("model", "alpha")).toEqual([1, 3, 5]);
  expect(counts("model", "beta")).toEqual([3, 4, 5]);
  expect(counts("lens", "correctness")).toEqual([1, 3, 5]);
  expect(counts("lens", "security")).toEqual([2, 4, 5]);
  expect(counts("consensus")).toEqual([3, 6, 5]);
  expect(counts("inline")).toEqual([2, 3, 5]);
  expect(scope(report, "model", "beta")?.precision).toBeCloseTo(0.75);
  expect(scope(report, "model", "beta")?.recall).toBeCloseTo(0.6);
}

/**
 * Per gold category, the consensus (its 6 rows as above; one matching: PR 1's row {14, 11} on
 * 10-12 and 25 on 25, PR 2's auth 8 on auth 8). A category's found leaves out the hits on
 * another category's comments. native.json: PR 1 Code Defect 10-12, Security 25, an
 * uncategorized base-side comment; PR 2's two comments uncategorized.
 * Code Defect 1 of 1, found 3 - 1 = 2; Security 1 of 1, found 2; uncategorized: PR 1 0 of 1,
 * found 3 - 2 = 1, PR 2 1 of 2, found 3: 1 of 3, found 4.
 */
const NATIVE_CATEGORIES = {
  "Code Defect": [1, 2, 1],
  "Security Vulnerability": [1, 2, 1],
  uncategorized: [1, 4, 3],
};
/**
 * aacr.json: PR 1 Code Defect 10-12 and base-side 5, Security 25; PR 2 Security auth 8, Code
 * Defect auth 20. Code Defect: PR 1 1 of 2, found 3 - 1 = 2; PR 2 0 of 1, found 3 - 1 = 2:
 * 1 of 3, found 4. Security: PR 1 1 of 1, found 2; PR 2 1 of 1, found 3: 2 of 2, found 5.
 */
const AACR_CATEGORIES = { "Code Defect": [1, 4, 3], "Security Vulnerability": [2, 5, 2] };

function categoryCounts(report: { scopes: Scope[] }) {
  return Object.fromEntries(
    report.scopes
      .filter((s) => s.kind === "category")
      .map((s) => [s.name, [s.matched, s.found, s.gold]]),
  );
}

describe("gadfly eval", () => {
  it("scores the native dataset against the fake models as hand-counted, and records them", async () => {
    const record = join(sandbox.root, "recorded");
    const run = await evalRun([
      "--dataset",
      join(FIXTURES, "native.json"),
      "--format",
      "json",
      "--record",
      record,
    ]);
    expect(run.stderr).toContain("gadfly eval: 2/2 acme__repo-2");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expectHandCount(report);
    expect(categoryCounts(report)).toEqual(NATIVE_CATEGORIES);
    expect(report.spend.total.inputTokens).toBeGreaterThan(0);
    expect(report.spend.total.costUsd).toBeGreaterThan(0);
    // The committed recordings the other tests replay are these: GADFLY_EVAL_RERECORD=1 renews them.
    if (process.env.GADFLY_EVAL_RERECORD === "1") {
      await cp(record, join(FIXTURES, "recordings"), { recursive: true });
    }
  });

  it("replays the committed recordings offline, AACR-Bench format, with the same figures", async () => {
    const calls = ollama.callCount("alpha") + ollama.callCount("beta");
    const run = await evalRun([
      "--dataset",
      join(FIXTURES, "aacr.json"),
      "--format",
      "json",
      "--replay",
      join(FIXTURES, "recordings"),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expectHandCount(JSON.parse(run.stdout));
    expect(categoryCounts(JSON.parse(run.stdout))).toEqual(AACR_CATEGORIES);
    expect(ollama.callCount("alpha") + ollama.callCount("beta")).toBe(calls);
  });

  it("prints the text table the JSON holds, and a markdown table", async () => {
    const replay = [
      "--dataset",
      join(FIXTURES, "native.json"),
      "--replay",
      join(FIXTURES, "recordings"),
      "--no-progress",
    ];
    const text = await evalRun(replay);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toBe("");
    expect(text.stdout).toMatch(/^model beta +4 +3 +5 +0\.750 +0\.600 +0\.667 /m);
    expect(text.stdout).toMatch(/^inline +3 +2 +5 +0\.667 +0\.400 +0\.500$/m);
    // Replayed: tokens and cost as recorded, but no time (it would be the replay's own).
    expect(text.stdout).toMatch(
      /^model alpha +3 +1 +5 +0\.333 +0\.200 +0\.250 +[\d,]+ +\$[\d.]+$/m,
    );
    expect(text.stdout).toContain("no model time (replayed)");
    const markdown = await evalRun([...replay, "--format", "markdown"]);
    expect(markdown.stdout).toContain("| consensus | 6 | 3 | 5 | 0.500 | 0.600 | 0.545 |");
    expect(markdown.stdout).toContain(
      "| consensus · uncategorized | 4 | 1 | 3 | 0.250 | 0.333 | 0.286 |",
    );
    expect(text.stdout).toMatch(/^consensus · Code Defect +2 +1 +1 +0\.500 +1\.000 +0\.667$/m);
  });

  it("--window 0 keeps only findings inside the gold range", async () => {
    const run = await evalRun([
      "--dataset",
      join(FIXTURES, "native.json"),
      "--replay",
      join(FIXTURES, "recordings"),
      "--window",
      "0",
      "--format",
      "json",
    ]);
    const report = JSON.parse(run.stdout);
    // alpha's 14 is 2 lines past 10-12: a miss now; beta's 11, 25 and auth 8 are inside.
    expect(scope(report, "model", "alpha")?.matched).toBe(0);
    expect(scope(report, "model", "beta")?.matched).toBe(3);
  });

  it("--resume skips the entries already in the results file and --limit stops early", async () => {
    const results = join(sandbox.root, "results.jsonl");
    const replay = [
      "--dataset",
      join(FIXTURES, "native.json"),
      "--replay",
      join(FIXTURES, "recordings"),
      "--resume",
      results,
      "--format",
      "json",
    ];
    const first = await evalRun([...replay, "--limit", "1"]);
    expect(JSON.parse(first.stdout).entries).toBe(1);
    expect((await readFile(results, "utf8")).trim().split("\n")).toHaveLength(1);
    const second = await evalRun(replay);
    expect(second.stderr).not.toContain("acme__repo-1");
    expect(second.stderr).toContain("2/2 acme__repo-2");
    expectHandCount(JSON.parse(second.stdout));
  });

  it("refuses a results file measured under another window, or one that is not results", async () => {
    const results = join(sandbox.root, "window-results.jsonl");
    const replay = [
      "--dataset",
      join(FIXTURES, "native.json"),
      "--replay",
      join(FIXTURES, "recordings"),
      "--resume",
      results,
    ];
    expect((await evalRun([...replay, "--limit", "1"])).code).toBe(0);
    const other = await evalRun([...replay, "--window", "5"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("line 1 was measured with window 3, this run with 5");
    const line = JSON.parse((await readFile(results, "utf8")).trim());
    await writeFile(results, `${JSON.stringify({ ...line, scores: "many" })}\n`);
    const forged = await evalRun(replay);
    expect(forged.code).toBe(2);
    expect(forged.stderr).toContain("line 1 is not a gadfly eval result");
  });

  it("names a pull request whose clone is missing and does not score it", async () => {
    const dataset = join(sandbox.root, "missing.json");
    const native = JSON.parse(await readFile(join(FIXTURES, "native.json"), "utf8"));
    native.entries[0].repo = "nowhere";
    await writeFile(dataset, JSON.stringify(native));
    const run = await evalRun([
      "--dataset",
      dataset,
      "--replay",
      join(FIXTURES, "recordings"),
      "--format",
      "json",
    ]);
    const report = JSON.parse(run.stdout);
    expect(report.reviewed).toBe(1);
    expect(report.failed).toEqual([
      { id: "acme__repo-1", error: expect.stringContaining("nowhere") },
    ]);
  });

  it("stops at the config's daily token cap, spent across the whole run, and says so", async () => {
    const capped = join(sandbox.root, "capped.yml");
    await writeFile(capped, `${config(ollama.url)}budget:\n  dailyTokens: 1\n`);
    const run = await runGadfly(
      [
        "eval",
        "--config",
        capped,
        "--repos",
        reposDir,
        "--dataset",
        join(FIXTURES, "native.json"),
        "--replay",
        join(FIXTURES, "recordings"),
      ],
      { cwd: sandbox.work, env: { ...sandbox.env, ...repository.env } as Record<string, string> },
    );
    expect(run.code, run.stderr).toBe(0);
    // The first entry's first lens spends past the cap: its other lenses are skipped (they count
    // as not completed) and the second entry never starts.
    expect(run.stdout).toMatch(/^1 of 2 pull requests reviewed/);
    expect(run.stdout).toContain("Stopped early: daily cap of 1 token; 1 not reviewed.");
    expect(run.stdout).toMatch(/did not complete/);
    expect(run.stderr).not.toContain("acme__repo-2");
  });

  it("refuses a dataset that is neither format, naming the field", async () => {
    const dataset = join(sandbox.root, "bad.json");
    await writeFile(
      dataset,
      JSON.stringify({ format: "gadfly-eval", version: 1, entries: [{ id: "x" }] }),
    );
    const run = await evalRun(["--dataset", dataset]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^gadfly: dataset .*bad\.json: entries\.0\.repo: /);
  });

  it("--judge: a location match counts only when the judge says it is the same problem; a re-run asks nothing", async () => {
    const cache = join(sandbox.root, "judge-cache");
    const judged = (format: string) =>
      evalRun(
        [
          "--dataset",
          join(FIXTURES, "native.json"),
          "--replay",
          join(FIXTURES, "recordings"),
          "--models",
          "alpha,beta",
          "--judge",
          "judge-1",
          "--judge-cache",
          cache,
          "--format",
          format,
          "--no-progress",
        ],
        judgeConfigPath,
      );
    const before = openai.requests.length;
    const first = await judged("json");
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout);
    // The pairs at the right place (window 3): alpha 14 and beta 11 on 10-12 (same problem),
    // beta 25 on 25 (not: and the block the dataset planted there was defused), beta auth 8 on
    // auth 8 (garbage: no match). The consensus rows are those findings again: 4 pairs.
    const counts = (kind: string, name?: string) => {
      const s = scope(report, kind, name);
      return s === undefined ? undefined : [s.matched, s.found, s.gold];
    };
    expect(counts("model", "alpha")).toEqual([1, 3, 5]);
    expect(counts("model", "beta")).toEqual([1, 4, 5]);
    expect(counts("lens", "security")).toEqual([0, 4, 5]);
    expect(counts("consensus")).toEqual([1, 6, 5]);
    expect(counts("inline")).toEqual([1, 3, 5]);
    expect(report.judge).toMatchObject({
      model: "judge-1",
      pairs: 4,
      cached: 0,
      same: 2,
      different: 1,
      unreadable: 1,
      failed: 0,
    });
    expect(report.judge.problems).toEqual([
      'src/auth.ts:8: "same" must be true or false (no match)',
    ]);
    expect(openai.requests.length - before).toBe(4);
    expect(report.judge.spend.inputTokens).toBeGreaterThan(0);
    expect(report.judge.spend.costUsd).toBeGreaterThan(0);
    // Every judge prompt fenced both texts as untrusted.
    for (const request of openai.requests.slice(before)) {
      const user = request.messages.at(-1)?.content ?? "";
      expect(user).toContain("The gold comment — untrusted content");
      expect(user).toContain("The finding — untrusted content");
    }

    // Again, with the same cache: no request, nothing spent, the same figures.
    const again = await judged("json");
    expect(again.code, again.stderr).toBe(0);
    expect(openai.requests.length - before).toBe(4);
    const second = JSON.parse(again.stdout);
    expect(second.scopes).toEqual(report.scopes);
    expect(second.judge).toMatchObject({ pairs: 4, cached: 4, same: 2, unreadable: 1 });
    expect(second.judge.spend).toMatchObject({ inputTokens: 0, outputTokens: 0, costUsd: 0 });

    // The text and markdown reports say what the judge did and cost.
    for (const format of ["text", "markdown"]) {
      const run = await judged(format);
      expect(run.stdout).toContain(
        "Judge judge-1: 4 location matches judged (0 asked, 4 from its cache): 2 the same problem, 1 not; 1 unreadable and 0 failed answers count as no match. Spent 0 tokens, $0.0000.",
      );
    }
    expect(openai.requests.length - before).toBe(4);
  }, 120_000);

  it("--judge refuses a model the config does not have", async () => {
    const run = await evalRun(
      [
        "--dataset",
        join(FIXTURES, "native.json"),
        "--replay",
        join(FIXTURES, "recordings"),
        "--judge",
        "nope",
      ],
      judgeConfigPath,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--judge: unknown model "nope"');
  });
});
