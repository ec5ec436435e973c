export interface ExpositionSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface ExpositionFamily {
  name: string;
  type: string;
  help: string;
  samples: ExpositionSample[];
}

const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\["\\n])*",?)*)\})? (NaN|[+-]Inf|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"/g;

/**
 * A strict reader of the Prometheus text format (0.0.4), independent of the
 * code under test: every line must be a HELP, a TYPE or a sample of the
 * family last declared, or it throws naming the line.
 */
export function parseExposition(text: string): ExpositionFamily[] {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a newline");
  const families: ExpositionFamily[] = [];
  for (const line of text.slice(0, -1).split("\n")) {
    const help = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (help !== null) {
      families.push({ name: help[1] ?? "", type: "", help: help[2] ?? "", samples: [] });
      continue;
    }
    const family = families.at(-1);
    const type =
      /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type !== null) {
      if (family === undefined || family.name !== type[1] || family.type !== "")
        throw new Error(`stray TYPE: ${line}`);
      family.type = type[2] ?? "";
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (sample === null || family === undefined) throw new Error(`not a sample line: ${line}`);
    const name = sample[1] ?? "";
    const suffixes = family.type === "histogram" ? ["_bucket", "_sum", "_count"] : [""];
    if (!suffixes.some((suffix) => name === `${family.name}${suffix}`)) {
      throw new Error(`sample ${name} outside its family ${family.name}`);
    }
    const labels: Record<string, string> = {};
    for (const match of (sample[2] ?? "").matchAll(LABEL)) {
      labels[match[1] ?? ""] = (match[2] ?? "")
        .replace(/\\n/g, "\n")
        .replace(/\\"/g, '"')
        .replace(/\\\\/g, "\\");
    }
    const raw = sample[3] ?? "";
    const value =
      raw === "+Inf" ? Number.POSITIVE_INFINITY : raw === "-Inf" ? -Infinity : Number(raw);
    family.samples.push({ name, labels, value });
  }
  return families;
}
