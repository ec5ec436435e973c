import { describe, expect, it } from "vitest";
import { MetricsRegistry } from "../../src/server/metrics-registry.js";
import { parseExposition } from "./helpers/parse-exposition.js";

describe("MetricsRegistry", () => {
  it("renders counters and gauges per label set, escaping label values and help", async () => {
    const registry = new MetricsRegistry();
    const requests = registry.counter("demo_requests_total", "Requests\\by kind\nand more.", [
      "kind",
    ]);
    const plain = registry.counter("demo_starts_total", "Starts.");
    const depth = registry.gauge("demo_depth", "Depth.", ["state"]);
    requests.inc({ kind: 'GET /a "quoted"\\path\nnext' });
    requests.inc({ kind: 'GET /a "quoted"\\path\nnext' }, 2);
    requests.inc({ kind: "POST /b" });
    depth.set({ state: "queued" }, 4);
    depth.set({ state: "queued" }, 3);
    const text = await registry.render();
    expect(text).toBe(
      [
        "# HELP demo_requests_total Requests\\\\by kind\\nand more.",
        "# TYPE demo_requests_total counter",
        'demo_requests_total{kind="GET /a \\"quoted\\"\\\\path\\nnext"} 3',
        'demo_requests_total{kind="POST /b"} 1',
        "# HELP demo_starts_total Starts.",
        "# TYPE demo_starts_total counter",
        "demo_starts_total 0",
        "# HELP demo_depth Depth.",
        "# TYPE demo_depth gauge",
        'demo_depth{state="queued"} 3',
        "",
      ].join("\n"),
    );
    const [family] = parseExposition(text);
    expect(family?.samples[0]?.labels.kind).toBe('GET /a "quoted"\\path\nnext');
    plain.inc();
    expect(await registry.render()).toContain("demo_starts_total 1\n");
  });

  it("renders histograms with cumulative buckets, +Inf, sum and count", async () => {
    const registry = new MetricsRegistry();
    const latency = registry.histogram("demo_seconds", "Latency.", [5, 1, 0.5], ["provider"]);
    for (const value of [0.2, 0.7, 0.7, 3, 42]) latency.observe({ provider: "openai" }, value);
    const [family] = parseExposition(await registry.render());
    expect(family?.type).toBe("histogram");
    expect(family?.samples.map((sample) => [sample.name, sample.labels.le, sample.value])).toEqual([
      ["demo_seconds_bucket", "0.5", 1],
      ["demo_seconds_bucket", "1", 3],
      ["demo_seconds_bucket", "5", 4],
      ["demo_seconds_bucket", "+Inf", 5],
      ["demo_seconds_sum", undefined, 46.6],
      ["demo_seconds_count", undefined, 5],
    ]);
  });

  it("runs collectors at each render and refuses misuse", async () => {
    const registry = new MetricsRegistry();
    const depth = registry.gauge("demo_depth", "Depth.", ["state"]);
    let queued = 1;
    registry.collect(async () => depth.set({ state: "queued" }, queued));
    expect(await registry.render()).toContain('demo_depth{state="queued"} 1');
    queued = 7;
    expect(await registry.render()).toContain('demo_depth{state="queued"} 7');

    expect(() => registry.gauge("demo_depth", "Again.")).toThrow(/twice/);
    expect(() => registry.counter("demo-bad", "Bad.")).toThrow(/invalid/);
    const counter = registry.counter("demo_total", "Total.", ["kind"]);
    expect(() => counter.inc({ other: "x" })).toThrow(/labels/);
    expect(() => counter.inc({ kind: "x" }, -1)).toThrow(/decrease/);
  });
});
