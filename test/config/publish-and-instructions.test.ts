import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { planReview } from "../../src/config/plan-review.js";
import { REPO_CONFIG_LIMITS } from "../../src/config/repo-config-limits.js";
import { DEFAULT_REPO_CONFIG, RepoConfig } from "../../src/config/repo-config-schema.js";
import { resolveReviewPlan } from "../../src/config/resolve-review-plan.js";
import { AppConfig } from "../../src/config/schema.js";

const SOURCE = ".github/gadfly.yml";
const base = {
  providers: [{ name: "local", type: "ollama" }],
  models: [{ id: "m1", provider: "local" }],
};
const app = AppConfig.parse(base);

/** The fields a file's notice would name, or [] when the file is valid. */
function issuesFor(text: string): string[] {
  try {
    parseConfigText(SOURCE, text, RepoConfig);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.issues.map((issue) => issue.path);
  }
}

const planOf = (text: string, appConfig = app) =>
  resolveReviewPlan(appConfig, parseConfigText(SOURCE, text, RepoConfig));

describe("publish", () => {
  it("defaults to agreed findings, every severity, at most 30 inline", () => {
    expect(app.publish).toEqual({ inline: "agreed", minSeverity: "nit", maxInline: 30 });
    expect(resolveReviewPlan(app, DEFAULT_REPO_CONFIG).publish).toEqual({
      inline: "agreed",
      minSeverity: "nit",
      maxInline: 30,
    });
  });

  it("the app sets the default; each field a repository sets overrides it", () => {
    const strict = AppConfig.parse({
      ...base,
      publish: { inline: "off", minSeverity: "medium", maxInline: 10 },
    });
    expect(resolveReviewPlan(strict, DEFAULT_REPO_CONFIG).publish).toEqual({
      inline: "off",
      minSeverity: "medium",
      maxInline: 10,
    });
    expect(planOf("publish:\n  inline: all\n", strict).publish).toEqual({
      inline: "all",
      minSeverity: "medium",
      maxInline: 10,
    });
    expect(
      planOf("publish: { inline: agreed, minSeverity: high, maxInline: 0 }\n", strict).publish,
    ).toEqual({ inline: "agreed", minSeverity: "high", maxInline: 0 });
  });

  it("an invalid value is named by its field", () => {
    expect(issuesFor("publish:\n  inline: everything\n")).toEqual(["publish.inline"]);
    expect(issuesFor("publish:\n  minSeverity: critical\n")).toEqual(["publish.minSeverity"]);
    expect(issuesFor("publish:\n  maxInline: 31\n")).toEqual(["publish.maxInline"]);
    expect(issuesFor("publish:\n  maxInline: -1\n")).toEqual(["publish.maxInline"]);
    expect(issuesFor("publish:\n  maxInline: 2.5\n")).toEqual(["publish.maxInline"]);
    expect(issuesFor("publish:\n  inlineComments: true\n")).toEqual(["publish"]);
    expect(issuesFor("publish: all\n")).toEqual(["publish"]);
    expect(() =>
      AppConfig.parse({ ...base, publish: { inline: "agreed", maxInline: 100 } }),
    ).toThrow();
  });

  it("an invalid file falls back to the app's defaults and reports the field for the notice", () => {
    const strict = AppConfig.parse({ ...base, publish: { minSeverity: "low" } });
    let config = DEFAULT_REPO_CONFIG;
    let issues: readonly { path: string; message: string }[] | null = null;
    try {
      config = parseConfigText(SOURCE, "publish:\n  inline: loud\n", RepoConfig);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      issues = error.issues;
    }
    const planned = planReview(strict, { config, issues }, []);
    expect(planned.issues.map((issue) => issue.path)).toEqual(["publish.inline"]);
    expect(planned.issues[0]?.message).toMatch(/agreed.*all.*off/);
    expect(planned.plan.publish).toEqual({ inline: "agreed", minSeverity: "low", maxInline: 30 });
  });
});

describe("instructions", () => {
  it("defaults to none; kept in the file's order", () => {
    expect(resolveReviewPlan(app, DEFAULT_REPO_CONFIG).instructions).toEqual([]);
    const plan = planOf(
      [
        "instructions:",
        '  - paths: ["src/db/**", "**/*.sql"]',
        "    text: Every query takes its values as parameters.",
        '  - paths: ["web/**"]',
        "    text: |",
        "      Strings shown to users come from the i18n catalogue.",
        "",
      ].join("\n"),
    );
    expect(plan.instructions).toEqual([
      { paths: ["src/db/**", "**/*.sql"], text: "Every query takes its values as parameters." },
      { paths: ["web/**"], text: "Strings shown to users come from the i18n catalogue." },
    ]);
  });

  it("paths are globs of the safe subset, each named by its index when refused", () => {
    expect(
      issuesFor('instructions:\n  - { paths: ["src/**", "(a+)+b"], text: "Be careful." }\n'),
    ).toEqual(["instructions[0].paths[1]"]);
    expect(issuesFor('instructions:\n  - { paths: ["/etc/**"], text: "x" }\n')).toEqual([
      "instructions[0].paths[0]",
    ]);
    expect(issuesFor('instructions:\n  - { paths: [], text: "x" }\n')).toEqual([
      "instructions[0].paths",
    ]);
    expect(issuesFor('instructions:\n  - { text: "x" }\n')).toEqual(["instructions[0].paths"]);
    expect(issuesFor('instructions:\n  - { paths: ["a/**"], text: "x", model: m1 }\n')).toEqual([
      "instructions[0]",
    ]);
  });

  it("bounded: entries, paths per entry, text length, glob length and matcher size", () => {
    const entry = (paths: string[], text = "Check it.") =>
      `  - { paths: [${paths.map((path) => `"${path}"`).join(", ")}], text: "${text}" }`;
    const file = (entries: string[]) => `instructions:\n${entries.join("\n")}\n`;

    const most = Array.from({ length: REPO_CONFIG_LIMITS.instructions }, (_, index) =>
      entry([`d${index}/**`]),
    );
    expect(issuesFor(file(most))).toEqual([]);
    expect(issuesFor(file([...most, entry(["more/**"])]))).toEqual(["instructions"]);

    const paths = Array.from({ length: REPO_CONFIG_LIMITS.instructionPaths }, (_, i) => `p${i}`);
    expect(issuesFor(file([entry(paths)]))).toEqual([]);
    expect(issuesFor(file([entry([...paths, "one-more"])]))).toEqual(["instructions[0].paths"]);

    const longest = "x".repeat(REPO_CONFIG_LIMITS.instructionTextChars);
    expect(issuesFor(file([entry(["a/**"], longest)]))).toEqual([]);
    expect(issuesFor(file([entry(["a/**"], `${longest}x`)]))).toEqual(["instructions[0].text"]);
    expect(issuesFor(file([entry(["a/**"], "  ")]))).toEqual(["instructions[0].text"]);

    const long = "a".repeat(REPO_CONFIG_LIMITS.ignoreGlobChars + 1);
    expect(issuesFor(file([entry([long])]))).toEqual(["instructions[0].paths[0]"]);

    // Each glob is fine alone; together they would make matching each path too costly.
    const heavy = Array.from({ length: 10 }, (_, e) =>
      entry(Array.from({ length: 5 }, (_, i) => `**/${"*a".repeat(40)}*${e}-${i}`)),
    );
    const issues = issuesFor(file(heavy));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^instructions\[\d+\]\.paths\[\d+\]$/);
  });
});
