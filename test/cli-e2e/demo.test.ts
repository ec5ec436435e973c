import { execFileSync } from "node:child_process";
import { cp, mkdir, readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonReport } from "../../src/cli/schema.js";
import { createSandbox, type Sandbox } from "./create-sandbox.js";
import { type GadflyRun, ROOT, runGadfly } from "./run-gadfly.js";
import { sarifValidator } from "./sarif-validator.js";

const VERIFY_FILE = "src/webhooks/verify-signature.ts";
const HANDLER_FILE = "src/webhooks/handle-payment-webhook.ts";
const GLM = "glm-5.2:cloud";
const KIMI = "kimi-k2.6:cloud";
const GPT = "gpt-5.1";
const OPUS = "claude-code/opus";

let sandbox: Sandbox;
let jsonRun: GadflyRun;
let report: JsonReport;

beforeAll(async () => {
  sandbox = await createSandbox();
  // With progress on, as a user sees it in CI: plain lines on stderr.
  jsonRun = await runGadfly(["review", "--demo", "--format", "json"], {
    cwd: sandbox.work,
    env: { ...sandbox.env, CI: "1" },
  });
  report = JSON.parse(jsonRun.stdout) as JsonReport;
});

afterAll(async () => {
  await sandbox.remove();
});

function clusterAt(file: string, line: number) {
  const cluster = report.findings.find(
    (finding) => finding.file === file && finding.line <= line && line <= finding.endLine,
  );
  if (cluster === undefined) throw new Error(`no cluster at ${file}:${line}`);
  return cluster;
}

function lensOf(model: string, lens: string) {
  const found = report.models
    .find((entry) => entry.id === model)
    ?.lenses.find((entry) => entry.lens === lens);
  if (found === undefined) throw new Error(`no lens ${lens} for ${model}`);
  return found;
}

describe("gadfly review --demo", () => {
  it("replays every recording to the end and reports the consensus as JSON", () => {
    expect(jsonRun.code).toBe(0);
    // A recording that ran out or diverged from the loop's turns fails its lens with a reason
    // naming the recording; only the lens the demo fails on purpose may fail.
    const failed = report.models.flatMap((model) =>
      model.lenses
        .filter((lens) => lens.outcome !== "done")
        .map((lens) => `${model.id} ${lens.lens}`),
    );
    expect(failed).toEqual([`${KIMI} security`]);
    expect(jsonRun.stderr).not.toMatch(/recording|diverged|has only \d+ (turns|runs)/);
    expect(report.modelCount).toBe(4);
    expect(report.verdict).toBe("Significant issues");
  });

  it("clusters agreeing findings across models and keeps disagreements single", () => {
    const bypass = clusterAt(VERIFY_FILE, 24);
    expect(bypass.agreement).toBe("3/4");
    expect(bypass.models).toEqual([GLM, GPT, OPUS]);
    expect(bypass.severity).toBe("high");
    expect(bypass.rank).toBe(1);

    const dedupe = clusterAt(HANDLER_FILE, 38);
    expect(dedupe.models).toEqual([GLM, GPT, OPUS]);
    expect(dedupe.lenses).toEqual(["correctness"]);

    expect(clusterAt("src/server.ts", 18).models).toEqual([GLM, KIMI, GPT]);

    // The timing-unsafe comparison and the unused timingSafeEqual import are two problems,
    // far apart in one file: neither absorbs the other.
    const comparison = clusterAt(VERIFY_FILE, 35);
    const unusedImport = clusterAt(VERIFY_FILE, 1);
    expect(comparison.models).toEqual([GPT, OPUS]);
    expect(comparison.severity).toBe("medium");
    expect(unusedImport.models).toEqual([GLM, KIMI]);
    expect(unusedImport.fingerprint).not.toBe(comparison.fingerprint);

    expect(clusterAt(HANDLER_FILE, 17).models).toEqual([KIMI, OPUS]);

    const counts = report.findings.map((finding) => finding.agreement);
    expect(counts.filter((count) => count === "3/4")).toHaveLength(4);
    expect(counts.filter((count) => count === "2/4")).toHaveLength(4);
    expect(counts.filter((count) => count === "1/4")).toHaveLength(4);
    // Agreed clusters (flagged or confirmed by two or more) rank first.
    expect(counts.slice(0, 8).every((count) => count !== "1/4")).toBe(true);
  });

  it("cross-examines the single-model findings: a confirmed one is agreed, a refuted one disputed", () => {
    // kimi's finding, confirmed by two of the three models it was put to: agreed by three.
    const emptySecret = clusterAt("src/config.ts", 10);
    expect(emptySecret.models).toEqual([KIMI]);
    expect(emptySecret.confirmedBy).toEqual([GPT, OPUS]);
    expect(emptySecret.agreement).toBe("3/4");
    expect(emptySecret.disputed).toBe(false);
    // opus's finding: glm confirms, kimi's refutation is a minority, gpt is unsure.
    const body = clusterAt("src/server.ts", 33);
    expect(body.confirmedBy).toEqual([GLM]);
    expect(body.challenges.map((answer) => `${answer.model}:${answer.verdict}`)).toEqual([
      `${GLM}:confirm`,
      `${KIMI}:refute`,
      `${GPT}:unsure`,
    ]);
    expect(body.disputed).toBe(false);
    // glm's "Outside my lens" claim about units: refuted by two, disputed, still listed.
    const units = clusterAt(VERIFY_FILE, 29);
    expect(units.models).toEqual([GLM]);
    expect(units.lens).toBe("correctness");
    expect(units.disputed).toBe(true);
    expect(units.agreement).toBe("1/4");
    expect(units.challenges.filter((answer) => answer.verdict === "refute")).toHaveLength(2);
    // Below medium nobody is asked; agreed clusters are not asked either.
    for (const finding of report.findings) {
      const asked = finding.challenges.length > 0;
      expect(asked).toBe(finding.models.length === 1 && finding.severity === "medium");
    }
    expect(jsonRun.stderr).not.toMatch(/cross-examination.*(failed|diverged)/);
  });

  it("shows the answer finalize recovered from an earlier turn, not the degenerate last turn", () => {
    const correctness = lensOf(GLM, "correctness");
    expect(correctness.recovered).toBe(true);
    expect(correctness.text).toContain("I traced one delivery through `handlePaymentWebhook`");
    expect(correctness.text).not.toContain("As I said above");
    // The verify pass ran on the recovered answer and dropped the finding it could not confirm.
    expect(correctness.findings.map((finding) => finding.line)).toEqual([38]);
    expect(correctness.dropped.map((finding) => finding.title)).toEqual([
      "A non-numeric timestamp passes the freshness check",
    ]);
    const recoveredElsewhere = report.models.flatMap((model) =>
      model.lenses.filter((lens) => lens.recovered).map((lens) => `${model.id} ${lens.lens}`),
    );
    expect(recoveredElsewhere).toEqual([`${GLM} correctness`]);
  });

  it("fails a lens over to the model's fallback and shows the hop", () => {
    // gpt-5.1 answers its performance lens empty twice; its `fallbacks` take the lens on.
    const performance = lensOf(GPT, "performance");
    expect(performance).toMatchObject({
      outcome: "done",
      verdict: "No material issues found",
      answeredBy: GLM,
      failovers: [{ from: GPT, to: GLM, reason: "empty completion twice" }],
    });
    // The fallback's session is its own recording, not glm's own performance review.
    expect(lensOf(GLM, "performance").findings.map((finding) => finding.title)).toEqual([
      "Replay window compares milliseconds with seconds",
    ]);
    // The progress lines say where the lens went, and why.
    expect(jsonRun.stderr).toContain(
      `${GPT} · performance — done: No material issues found · ${GPT} → ${GLM}: empty completion twice`,
    );
    // No lens hopped but that one.
    const hops = report.models.flatMap((model) =>
      model.lenses.flatMap((lens) => lens.failovers.map((hop) => `${hop.from} → ${hop.to}`)),
    );
    expect(hops).toEqual([`${GPT} → ${GLM}`]);
  });

  it("says what the run spent: tokens per model and phase, a cost for priced models, no durations on replay", () => {
    const usage = report.usage;
    if (usage === undefined) throw new Error("no usage");
    // The fallback's session is glm's spend, not gpt-5.1's.
    const glm = usage.models.find((model) => model.model === GLM);
    expect(glm?.priced).toBe(true);
    expect(glm?.phases.crossExamination.inputTokens).toBeGreaterThan(0);
    expect(usage.total.durationMs).toBeNull();
    // opus (an agent CLI) reports no usage: each prompt it was sent is charged an estimate,
    // priced like the others.
    const opus = usage.models.find((model) => model.model === OPUS);
    expect(opus?.total.inputTokens).toBeGreaterThan(0);
    expect(opus?.priced).toBe(true);
    expect(usage.total.costUsd).toBeGreaterThan(0);
    const sum = usage.models.reduce((total, model) => total + model.total.inputTokens, 0);
    expect(usage.total.inputTokens).toBe(sum);
  });

  it("reports the lens that never produced a findings block as failed, never clean", () => {
    const security = lensOf(KIMI, "security");
    expect(security.outcome).toBe("failed");
    expect(security.verdict).toBeNull();
    expect(security.failure).toMatch(/^no findings block after a repair turn/);
    expect(security.findings).toEqual([]);
    // Its other lenses still count: the model is part of the consensus.
    expect(report.models.find((model) => model.id === KIMI)?.verdict).toBe("Minor issues");
    // The progress lines on stderr tell the same story.
    expect(jsonRun.stderr).toContain(`${KIMI} · security — failed: no findings block`);
  });

  it("checks the suggestion a model proposed: applied to the head, the file is what it meant", async () => {
    const bypass = clusterAt(VERIFY_FILE, 26);
    expect(bypass.suggestion).toEqual({
      status: "passed",
      file: VERIFY_FILE,
      line: 26,
      endLine: 26,
      lines: ["    return false;"],
      original: ["    return true;"],
      supporters: [OPUS],
      grammar: "typescript",
      note: null,
    });
    const head = await readFile(join(ROOT, "examples/demo/head", VERIFY_FILE), "utf8");
    const lines = head.split("\n");
    const applied = [
      ...lines.slice(0, 25),
      ...(bypass.suggestion?.lines ?? []),
      ...lines.slice(26),
    ].join("\n");
    expect(applied).toBe(
      head.replace(
        "    return true;\n  }\n  const sentAt",
        "    return false;\n  }\n  const sentAt",
      ),
    );
    expect(report.findings.filter((finding) => finding.suggestion != null)).toHaveLength(1);
    // The terminal shows it under the finding, and SARIF carries it as the result's fix.
    const text = await runGadfly(["review", "--demo", "--format", "text", "--no-progress"], {
      cwd: sandbox.work,
      env: sandbox.env,
    });
    expect(text.stdout).toContain(
      `Suggested change to ${VERIFY_FILE}:26 (proposed by 1 of 3 models) — checked: it applies to these lines of the head with their indentation, and the file still parses (typescript).`,
    );
    expect(text.stdout).toMatch(/^ +- {5}return true;\n +\+ {5}return false;$/m);
  });

  it("writes SARIF that validates against the official SARIF 2.1.0 schema", async () => {
    const run = await runGadfly(["review", "--demo", "--format", "sarif", "--no-progress"], {
      cwd: sandbox.work,
      env: sandbox.env,
    });
    expect(run.code).toBe(0);
    const log = JSON.parse(run.stdout) as { runs: { results: unknown[] }[] };
    const validation = sarifValidator()(log);
    expect(validation.errors).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(log.runs[0]?.results).toHaveLength(report.findings.length);
    const fixes = (log.runs[0]?.results ?? []).flatMap(
      (result) => (result as { fixes?: unknown[] }).fixes ?? [],
    );
    expect(fixes).toHaveLength(1);
    expect(JSON.stringify(fixes[0])).toContain(
      '"deletedRegion":{"startLine":26,"endLine":26},"insertedContent":{"text":"    return false;"}',
    );
  });

  it("writes markdown that is the consensus comment and its checked suggestions, to a file with --output", async () => {
    const run = await runGadfly(
      ["review", "--demo", "--format", "markdown", "--no-progress", "--output", "consensus.md"],
      { cwd: sandbox.work, env: sandbox.env },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    const markdown = await readFile(join(sandbox.work, "consensus.md"), "utf8");
    expect(markdown.startsWith("<!-- gadfly-consensus -->\n")).toBe(true);
    expect(markdown).toContain("consensus across 4 models");
    expect(markdown).toContain("Final answer recovered from an earlier turn");
    // The layout people scan: severity words, numbered rows with details, fix hand-offs.
    expect(markdown).toMatch(/^\| (🔴 high|🟠 medium|🟡 low|⚪ nit) \| \*\*1\.\*\* /m);
    expect(markdown).toContain(
      "<details><summary>🤖 Fix hand-off: a prompt for a coding agent</summary>",
    );
    expect(markdown).toMatch(
      /<details><summary>🤖 Fix hand-off: one prompt for a coding agent covering the \d+ open agreed findings?<\/summary>/,
    );
    expect(markdown).toContain("How to check it:");
    // After the comment, the checked suggestion as a diff, saying what was checked.
    const suggestions = markdown.indexOf("\n### Checked suggestions\n");
    expect(suggestions).toBeGreaterThan(markdown.indexOf("Automated adversarial review by Gadfly"));
    expect(markdown.slice(suggestions)).toContain(
      "```diff\n-    return true;\n+    return false;\n```",
    );
    // The summary: one model's description under the verdict, its files grouped, findings counted.
    const summary = markdown.indexOf(`**📝 What this change does** — \`${GLM}\`'s description`);
    expect(summary).toBeGreaterThan(markdown.indexOf("**Verdict:"));
    expect(markdown.indexOf("| | Finding |")).toBeGreaterThan(summary);
    expect(markdown).toContain(
      "- Adds a POST \\/webhooks\\/payhook endpoint that receives PayHook payment notifications\\.",
    );
    expect(markdown).toMatch(
      /^- Webhook handling: `src\/webhooks\/handle-payment-webhook\.ts`, `src\/webhooks\/verify-signature\.ts` — ⚠️ \d+ findings, most severe 🔴 high$/m,
    );
  });

  it("exits 1 with --fail-on high when a high finding exists, 0 when none does", async () => {
    const high = await runGadfly(
      ["review", "--demo", "--format", "json", "--no-progress", "--fail-on", "high"],
      {
        cwd: sandbox.work,
        env: sandbox.env,
      },
    );
    expect(high.code).toBe(1);
    // Only the maintainability lens: nits, no high finding.
    const nits = await runGadfly(
      [
        "review",
        "--demo",
        "--format",
        "json",
        "--no-progress",
        "--fail-on",
        "high",
        "--lenses",
        "maintainability",
      ],
      { cwd: sandbox.work, env: sandbox.env },
    );
    expect(nits.code).toBe(0);
    const nitReport = JSON.parse(nits.stdout) as JsonReport;
    expect(nitReport.findings.length).toBeGreaterThan(0);
    expect(nitReport.findings.some((finding) => finding.severity === "high")).toBe(false);
  });
});

describe("the demo's files", () => {
  it("change.diff turns a base tree into exactly head/", async () => {
    const demo = join(ROOT, "examples", "demo");
    const head = join(demo, "head");
    const base = join(sandbox.root, "base");
    await mkdir(base);
    await cp(head, base, { recursive: true });
    const apply = (...args: string[]) =>
      execFileSync("git", ["apply", ...args, join(demo, "change.diff")], {
        cwd: base,
        env: sandbox.env,
      });
    // git apply works outside a repository: reversed, the diff must apply cleanly to head/...
    apply("--reverse");
    expect(await treeOf(base)).not.toEqual(await treeOf(head));
    // ...and applied again it must give head/ back, byte for byte.
    apply();
    expect(await treeOf(base)).toEqual(await treeOf(head));
  });
});

async function treeOf(directory: string): Promise<Record<string, string>> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile());
  const tree: Record<string, string> = {};
  for (const file of files) {
    const path = join(file.parentPath, file.name);
    tree[relative(directory, path)] = await readFile(path, "utf8");
  }
  return tree;
}
