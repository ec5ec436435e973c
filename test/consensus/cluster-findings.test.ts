import { describe, expect, it } from "vitest";
import { clusterFindings } from "../../src/consensus/cluster-findings.js";
import { makeFinding } from "../builders/finding.js";

const MODELS = ["opus", "kimi", "glm", "sonnet"];

const nullBody = (model: string, lens: string, line = 35) =>
  makeFinding({
    model,
    lens,
    line,
    title: "`pull_request.body` can be null; `.includes` throws",
    body: "GitHub sends `body: null` for a PR without a description, so `body.includes` throws.",
  });

describe("clusterFindings", () => {
  it("returns nothing for no findings", () => {
    expect(clusterFindings([])).toEqual([]);
  });

  it("merges one problem seen through different lenses, counting each model once", () => {
    const findings = [
      nullBody("kimi", "correctness"),
      nullBody("opus", "error-handling", 36),
      nullBody("opus", "correctness"),
    ];
    const [cluster, ...rest] = clusterFindings(findings, { modelOrder: MODELS });
    expect(rest).toEqual([]);
    expect(cluster?.models).toEqual(["opus", "kimi"]);
    expect(cluster?.findings).toHaveLength(3);
  });

  it("keeps different problems on the same line apart", () => {
    const crash = makeFinding({
      model: "opus",
      line: 42,
      title: "Crash when the Authorization header is absent",
      body: '`req.headers.authorization.split(" ")` throws a TypeError when the header is missing.',
    });
    const logged = makeFinding({
      model: "kimi",
      line: 42,
      title: "Bearer token written to the logs",
      body: "`logger.info({ token })` records the credential in plain text.",
    });
    expect(clusterFindings([crash, logged])).toHaveLength(2);
  });

  it("never merges across files, whatever the title", () => {
    const a = makeFinding({ file: "a.ts", title: "Missing error handling for JSON.parse" });
    const b = makeFinding({ file: "b.ts", title: "Missing error handling for JSON.parse" });
    expect(clusterFindings([a, b])).toHaveLength(2);
  });

  it("does not chain two problems of one model through a third model's vaguer finding", () => {
    // opus reports two different problems at one place; kimi's finding mentions both. Average
    // linkage alone would let kimi pull them together; the same-model rule must stop it.
    const timeout = makeFinding({
      model: "opus",
      line: 12,
      title: "`http.Client` has no timeout",
      body: "`&http.Client{}` without Timeout hangs forever on a stalled server.",
    });
    const retries = makeFinding({
      model: "opus",
      line: 12,
      title: "`retryCount` is never reset between requests",
      body: "`retryCount` grows across calls, so later requests get no retries.",
    });
    const both = makeFinding({
      model: "kimi",
      line: 12,
      title: "`http.Client` timeout and `retryCount` handling are wrong",
      body: "No Timeout on `http.Client`; `retryCount` never reset.",
    });
    const clusters = clusterFindings([timeout, retries, both], { modelOrder: MODELS });
    for (const cluster of clusters) {
      expect(cluster.findings.filter((finding) => finding.model === "opus")).toHaveLength(
        cluster.models.includes("opus") ? 1 : 0,
      );
    }
    expect(clusters).toHaveLength(2);
  });

  it("chooses the representative by confidence, then severity, then model order", () => {
    const base = { line: 35, title: nullBody("x", "y").title, body: nullBody("x", "y").body };
    const low = makeFinding({ ...base, model: "opus", confidence: "low", severity: "high" });
    const sure = makeFinding({ ...base, model: "glm", confidence: "high", severity: "low" });
    const sureSevere = makeFinding({
      ...base,
      model: "sonnet",
      confidence: "high",
      severity: "medium",
    });
    const [cluster] = clusterFindings([low, sure, sureSevere], { modelOrder: MODELS });
    expect(cluster?.representative).toBe(sureSevere);
    expect(cluster?.findings[0]).toBe(sureSevere);

    const tieA = makeFinding({ ...base, model: "glm", confidence: "high", severity: "low" });
    const tieB = makeFinding({ ...base, model: "kimi", confidence: "high", severity: "low" });
    expect(clusterFindings([tieA, tieB], { modelOrder: MODELS })[0]?.representative).toBe(tieB);
  });

  it("votes the cluster severity once per model, ties to the lower", () => {
    const base = { line: 35, title: nullBody("x", "y").title, body: nullBody("x", "y").body };
    // opus reports it twice as high: still one vote.
    const findings = [
      makeFinding({ ...base, model: "opus", severity: "high", lens: "security" }),
      makeFinding({ ...base, model: "opus", severity: "high", lens: "correctness" }),
      makeFinding({ ...base, model: "kimi", severity: "low" }),
    ];
    expect(clusterFindings(findings, { modelOrder: MODELS })[0]?.severity).toBe("low");
    const majority = [...findings, makeFinding({ ...base, model: "glm", severity: "high" })];
    expect(clusterFindings(majority, { modelOrder: MODELS })[0]?.severity).toBe("high");
  });

  it("ranks by models, then severity, then file and line", () => {
    const single = makeFinding({ file: "a.ts", line: 1, severity: "high", title: "`alpha` leaks" });
    const pair = [
      makeFinding({
        file: "z.ts",
        model: "opus",
        severity: "nit",
        title: "`omega` duplicated twice",
      }),
      makeFinding({
        file: "z.ts",
        model: "kimi",
        severity: "nit",
        title: "`omega` duplicated twice",
      }),
    ];
    const later = makeFinding({
      file: "a.ts",
      line: 90,
      severity: "high",
      title: "`beta` unbounded",
    });
    const minor = makeFinding({
      file: "a.ts",
      line: 50,
      severity: "low",
      title: "`gamma` misnamed",
    });
    const ranked = clusterFindings([minor, later, single, ...pair], { modelOrder: MODELS });
    expect(ranked.map((cluster) => cluster.representative.title)).toEqual([
      "`omega` duplicated twice",
      "`alpha` leaks",
      "`beta` unbounded",
      "`gamma` misnamed",
    ]);
  });

  it("lists models in config order, unknown models after by id", () => {
    const base = { line: 35, title: nullBody("x", "y").title, body: nullBody("x", "y").body };
    const findings = ["zeta", "glm", "alpha", "opus"].map((model) =>
      makeFinding({ ...base, model }),
    );
    expect(clusterFindings(findings, { modelOrder: MODELS })[0]?.models).toEqual([
      "opus",
      "glm",
      "alpha",
      "zeta",
    ]);
  });

  it("gives same-worded problems of one file distinct fingerprints", () => {
    const first = makeFinding({ line: 10, title: "Magic number" });
    const second = makeFinding({ line: 200, title: "Magic number" });
    const clusters = clusterFindings([second, first]);
    expect(clusters).toHaveLength(2);
    expect(new Set(clusters.map((cluster) => cluster.fingerprint)).size).toBe(2);
  });

  it("clusters 10,000 findings in 500 files without comparing every pair", () => {
    const findings = Array.from({ length: 10_000 }, (_, index) =>
      makeFinding({
        file: `src/f${index % 500}.ts`,
        line: 1 + ((index * 37) % 900),
        model: MODELS[index % MODELS.length] ?? "opus",
        title: `\`handler${index % 13}\` swallows errors`,
      }),
    );
    const started = performance.now();
    const clusters = clusterFindings(findings, { modelOrder: MODELS });
    // Generous: a correctness guard against quadratic work, not a benchmark (bench/clustering.ts).
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(clusters.reduce((sum, cluster) => sum + cluster.findings.length, 0)).toBe(10_000);
  });
});
