export type Labels = Readonly<Record<string, string>>;

interface Family {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  labelNames: readonly string[];
  render(): string[];
}

/** A monotonically increasing count, per label set. */
export interface Counter {
  inc(labels?: Labels, by?: number): void;
}

/** A value that goes up and down, per label set. */
export interface Gauge {
  set(labels: Labels, value: number): void;
}

/** Observations counted into cumulative buckets, per label set. */
export interface Histogram {
  observe(labels: Labels, value: number): void;
}

/**
 * A small Prometheus registry rendering the text exposition format (0.0.4):
 * enough for Gadfly's few metrics without a dependency. Series appear in the
 * order they were first seen; `collect` hooks run before each render, for
 * values read at scrape time (e.g. the queue depth).
 */
export class MetricsRegistry {
  private readonly families: Family[] = [];
  private readonly collectors: (() => Promise<void>)[] = [];

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    const values = new Map<string, { labels: Labels; value: number }>();
    if (labelNames.length === 0) values.set("", { labels: {}, value: 0 });
    this.add({
      name,
      help,
      type: "counter",
      labelNames,
      render: () =>
        [...values.values()].map((entry) => sample(name, entry.labels, labelNames, entry.value)),
    });
    return {
      inc: (labels = {}, by = 1) => {
        if (by < 0) throw new Error(`counter ${name} cannot decrease`);
        const key = seriesKey(name, labels, labelNames);
        const entry = values.get(key) ?? { labels, value: 0 };
        entry.value += by;
        values.set(key, entry);
      },
    };
  }

  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    const values = new Map<string, { labels: Labels; value: number }>();
    this.add({
      name,
      help,
      type: "gauge",
      labelNames,
      render: () =>
        [...values.values()].map((entry) => sample(name, entry.labels, labelNames, entry.value)),
    });
    return {
      set: (labels, value) => {
        values.set(seriesKey(name, labels, labelNames), { labels, value });
      },
    };
  }

  histogram(
    name: string,
    help: string,
    buckets: readonly number[],
    labelNames: readonly string[] = [],
  ): Histogram {
    const bounds = [...buckets].sort((left, right) => left - right);
    const values = new Map<
      string,
      { labels: Labels; counts: number[]; sum: number; count: number }
    >();
    this.add({
      name,
      help,
      type: "histogram",
      labelNames,
      render: () =>
        [...values.values()].flatMap((entry) => {
          let cumulative = 0;
          const lines = bounds.map((bound, index) => {
            cumulative += entry.counts[index] ?? 0;
            return sample(
              `${name}_bucket`,
              { ...entry.labels, le: formatNumber(bound) },
              [...labelNames, "le"],
              cumulative,
            );
          });
          lines.push(
            sample(
              `${name}_bucket`,
              { ...entry.labels, le: "+Inf" },
              [...labelNames, "le"],
              entry.count,
            ),
            sample(`${name}_sum`, entry.labels, labelNames, entry.sum),
            sample(`${name}_count`, entry.labels, labelNames, entry.count),
          );
          return lines;
        }),
    });
    return {
      observe: (labels, value) => {
        const key = seriesKey(name, labels, labelNames);
        const entry = values.get(key) ?? { labels, counts: bounds.map(() => 0), sum: 0, count: 0 };
        const index = bounds.findIndex((bound) => value <= bound);
        if (index >= 0) entry.counts[index] = (entry.counts[index] ?? 0) + 1;
        entry.sum += value;
        entry.count += 1;
        values.set(key, entry);
      },
    };
  }

  /** Runs before every render; a failing collector fails the scrape rather than show stale values. */
  collect(hook: () => Promise<void>): void {
    this.collectors.push(hook);
  }

  async render(): Promise<string> {
    for (const hook of this.collectors) await hook();
    const lines = this.families.flatMap((family) => [
      `# HELP ${family.name} ${escapeHelp(family.help)}`,
      `# TYPE ${family.name} ${family.type}`,
      ...family.render(),
    ]);
    return `${lines.join("\n")}\n`;
  }

  private add(family: Family): void {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(family.name)) {
      throw new Error(`invalid metric name ${family.name}`);
    }
    if (this.families.some((known) => known.name === family.name)) {
      throw new Error(`metric ${family.name} registered twice`);
    }
    this.families.push(family);
  }
}

function seriesKey(name: string, labels: Labels, labelNames: readonly string[]): string {
  const given = Object.keys(labels);
  if (given.length !== labelNames.length || labelNames.some((label) => !(label in labels))) {
    throw new Error(
      `metric ${name} takes labels [${labelNames.join(", ")}], got [${given.join(", ")}]`,
    );
  }
  return JSON.stringify(labelNames.map((label) => labels[label]));
}

function sample(
  name: string,
  labels: Labels,
  labelNames: readonly string[],
  value: number,
): string {
  const pairs = labelNames.map((label) => `${label}="${escapeLabel(labels[label] ?? "")}"`);
  return `${name}${pairs.length === 0 ? "" : `{${pairs.join(",")}}`} ${formatNumber(value)}`;
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

function escapeLabel(value: string): string {
  return value.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n");
}

function escapeHelp(value: string): string {
  return value.replaceAll("\\", "\\\\").replaceAll("\n", "\\n");
}
