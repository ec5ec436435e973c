import { describe, expect, it } from "vitest";
import { createGadflyMetrics } from "../../src/server/gadfly-metrics.js";
import { parseExposition } from "./helpers/parse-exposition.js";

describe("createGadflyMetrics", () => {
  it("exposes rounds, lenses, queue depth, model latency and GitHub requests as gadfly_*", async () => {
    let depth = { queued: 5, active: 2 };
    const metrics = createGadflyMetrics({ queueDepth: async () => depth });
    metrics.round("started");
    metrics.round("started");
    metrics.round("completed");
    metrics.lens("done");
    metrics.lens("failed");
    metrics.modelCall({ provider: "ollama-cloud", seconds: 12, outcome: "ok" });
    metrics.githubRequest("GET /repos/{owner}/{repo}/pulls/{pull_number}", "ok");
    metrics.finding("gpt-a", "reported", 3);
    metrics.finding("gpt-a", "dismissed");

    const families = parseExposition(await metrics.render());
    expect(families.map((family) => [family.name, family.type])).toEqual([
      ["gadfly_rounds_total", "counter"],
      ["gadfly_lenses_total", "counter"],
      ["gadfly_model_call_duration_seconds", "histogram"],
      ["gadfly_model_tokens_total", "counter"],
      ["gadfly_model_cost_usd_total", "counter"],
      ["gadfly_github_requests_total", "counter"],
      ["gadfly_findings_total", "counter"],
      ["gadfly_queue_jobs", "gauge"],
    ]);
    const values = (name: string) =>
      Object.fromEntries(
        (families.find((family) => family.name === name)?.samples ?? []).map((sample) => [
          Object.values(sample.labels).join(","),
          sample.value,
        ]),
      );
    // Every state is present from the start, so rate() sees the first increase.
    expect(values("gadfly_rounds_total")).toEqual({
      started: 2,
      resumed: 0,
      completed: 1,
      failed: 0,
      cancelled: 0,
    });
    expect(values("gadfly_lenses_total")).toEqual({ done: 1, failed: 1, cancelled: 0, skipped: 0 });
    expect(values("gadfly_queue_jobs")).toEqual({ queued: 5, active: 2 });
    expect(values("gadfly_findings_total")).toEqual({ "gpt-a,reported": 3, "gpt-a,dismissed": 1 });
    const latency = families.find((family) => family.name === "gadfly_model_call_duration_seconds");
    expect(
      latency?.samples.find(
        (sample) => sample.labels.le === "10" && sample.name.endsWith("_bucket"),
      )?.value,
    ).toBe(0);
    expect(
      latency?.samples.find(
        (sample) => sample.labels.le === "20" && sample.name.endsWith("_bucket"),
      )?.value,
    ).toBe(1);

    depth = { queued: 0, active: 1 };
    expect(values("gadfly_queue_jobs")).toEqual({ queued: 5, active: 2 });
    const again = parseExposition(await metrics.render());
    expect(
      again.find((family) => family.name === "gadfly_queue_jobs")?.samples.map((s) => s.value),
    ).toEqual([0, 1]);
  });
});
