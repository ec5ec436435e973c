import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitRepository, type GitRepository } from "../cli/git-repository.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import { type ProcessResult, runProcess } from "../helpers/run-process.js";

/*
 * The install a new user does before anything is published: `npm pack` in a checkout (dist/
 * built at pack time), then `npm install --global` of that tarball into an empty prefix, its
 * dependencies from the npm registry as usual and nothing compiled on their side; and the link
 * install from a checkout. Then the commands the README gives, from directories that are not
 * the checkout. The checkout is a copy of this one's files, so packing never rewrites the dist/
 * that the suite's other tests run.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const NPM_TIMEOUT_MS = 240_000;
const KEY = "sk-pack-install-51d0";
const packageJson = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  bin: Record<string, string>;
};

let stage: string;
let checkout: string;
let tarball: string;
let packed: string[];
let installLog: ProcessResult;
let prefix: string;
let openai: FakeOpenAIServer;
const repositories: GitRepository[] = [];

/** npm's own environment: this one's, without what an enclosing `npm test` put there. */
function npmEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    const npmVariable = /^npm_/i.test(name) || name === "INIT_CWD";
    const kept = /^npm_config_(cache|registry|nodedir|userconfig)$/i.test(name);
    if (!npmVariable || kept) env[name] = value;
  }
  env.npm_config_update_notifier = "false";
  env.npm_config_fund = "false";
  env.npm_config_audit = "false";
  return env;
}

function npm(args: string[], cwd: string): Promise<ProcessResult> {
  return runProcess("npm", args, { cwd, env: npmEnv(), timeoutMs: NPM_TIMEOUT_MS });
}

/** A user's shell: the prefix's bin first on PATH, a home of their own, none of npm's variables. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${join(prefix, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: join(stage, "home"),
    GIT_CONFIG_NOSYSTEM: "1",
    ...extra,
  };
}

function gadfly(bin: string, args: string[], cwd: string, env = userEnv()) {
  return runProcess(join(prefix, "bin", bin), args, { cwd, env, timeoutMs: 60_000 });
}

beforeAll(async () => {
  stage = await mkdtemp(join(tmpdir(), "gadfly-pack-"));
  await mkdir(join(stage, "home"));
  await mkdir(join(stage, "elsewhere"));
  // A checkout: the files git has (tracked, or new and not ignored), no dist/ and no build.
  checkout = join(stage, "checkout");
  const files = execFileSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "-z"],
    { cwd: ROOT, encoding: "utf8" },
  )
    .split("\0")
    .filter((path) => path !== "" && existsSync(join(ROOT, path)));
  for (const path of files) {
    await mkdir(dirname(join(checkout, path)), { recursive: true });
    await copyFile(join(ROOT, path), join(checkout, path));
  }
  // `npm ci` in that checkout: its dev dependencies are this one's.
  await symlink(join(ROOT, "node_modules"), join(checkout, "node_modules"), "dir");

  const pack = await npm(["pack", "--json", "--pack-destination", stage], checkout);
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const report = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = join(stage, report[0]?.filename ?? "");
  packed = (report[0]?.files ?? []).map((file) => file.path);

  prefix = join(stage, "prefix");
  installLog = await npm(
    ["install", "--global", "--prefix", prefix, "--prefer-offline", "--loglevel=info", tarball],
    join(stage, "elsewhere"),
  );
  if (installLog.code !== 0) throw new Error(`npm install failed: ${installLog.stderr}`);

  openai = await startFakeOpenAIServer({ apiKey: KEY });
}, 2 * NPM_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all([
    openai?.close(),
    ...repositories.map((repository) => repository.remove()),
    stage === undefined ? undefined : rm(stage, { recursive: true, force: true }),
  ]);
});

describe("npm pack", () => {
  it("packs dist/ as built at pack time, the bins, lenses, templates and the demo; no source or test", () => {
    expect(tarball.endsWith(`${packageJson.name}-${packageJson.version}.tgz`)).toBe(true);
    for (const path of [
      "package.json",
      "bin/gadfly.js",
      "dist/cli/main.js",
      "dist/main.js",
      "lenses/security.md",
      "templates/consensus-comment.hbs",
      "app.yml",
      "examples/demo/change.diff",
    ]) {
      expect(packed, path).toContain(path);
    }
    expect(packed.filter((path) => /^(src|test|bench|docs)\//.test(path))).toEqual([]);
    // No TypeScript to compile: what the user installs runs as it is (the demo's reviewed
    // tree is TypeScript, as data).
    expect(
      packed.filter((path) => /\.ts$/.test(path) && !path.startsWith("examples/demo/head/")),
    ).toEqual([]);
    // The build is the one `npm pack` ran, from this checkout's sources.
    const built = packed.filter((path) => /^dist\/.*\.js$/.test(path));
    expect(built.length).toBeGreaterThan(100);
    for (const path of built) {
      expect(
        existsSync(join(checkout, path.replace(/^dist\//, "src/").replace(/\.js$/, ".ts"))),
        path,
      ).toBe(true);
    }
  });
});

describe("npm install --global of the tarball, into an empty prefix", () => {
  it("installs the dependencies from the registry and builds nothing", () => {
    const installed = join(prefix, "lib", "node_modules", packageJson.name);
    expect(existsSync(join(installed, "dist", "cli", "main.js"))).toBe(true);
    expect(existsSync(join(installed, "node_modules", "probot", "package.json"))).toBe(true);
    // No compiler on the user's side: no TypeScript installed, no prepare or build run.
    expect(existsSync(join(installed, "node_modules", "typescript"))).toBe(false);
    // (npm 11 may still list the checkout's `prepare` among scripts "not covered by
    // allowScripts": it is never run for a tarball, and could not be, without TypeScript.)
    expect(installLog.stderr).not.toMatch(/^npm info run gadfly-review@/m);
  });

  it("gives two names to one program: gadfly, and gadfly-review (the package's own)", async () => {
    expect(Object.keys(packageJson.bin).sort()).toEqual(["gadfly", "gadfly-review"]);
    expect(packageJson.bin["gadfly-review"]).toBe(packageJson.bin.gadfly);
    for (const bin of ["gadfly", "gadfly-review"]) {
      const run = await gadfly(bin, ["--version"], join(stage, "elsewhere"));
      expect({ bin, ...run }).toEqual({
        bin,
        code: 0,
        stdout: `${packageJson.version}\n`,
        stderr: "",
      });
    }
  });

  it("runs the offline demo from any directory", async () => {
    const run = await gadfly(
      "gadfly",
      ["review", "--demo", "--format", "json", "--no-progress"],
      join(stage, "elsewhere"),
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { verdict: string; modelCount: number };
    expect(report).toMatchObject({ verdict: "Significant issues", modelCount: 4 });
  }, 60_000);

  it("reviews a scratch repository with a model of the user's config", async () => {
    const repository = await createGitRepository();
    repositories.push(repository);
    await repository.write("src/limit.ts", "export const limit = 10;\n");
    repository.commit("A limit");
    repository.git("checkout", "--quiet", "-b", "topic");
    await repository.write("src/limit.ts", "export const limit = Number(process.argv[2]);\n");
    repository.commit("The limit from the command line");
    openai.script("gpt-test", [
      { toolCalls: [{ name: "read_file", arguments: { path: "src/limit.ts" } }] },
      {
        text: `VERDICT: Minor issues\n\`\`\`gadfly-findings\n${JSON.stringify([
          {
            file: "src/limit.ts",
            line: 1,
            severity: "medium",
            confidence: "high",
            title: "An argument that is not a number makes the limit NaN",
            body: "`Number('x')` is NaN, and every comparison with NaN is false.",
          },
        ])}\n\`\`\``,
      },
    ]);
    const configPath = join(stage, "config.yml");
    await writeFile(
      configPath,
      `providers:
  - { name: openai, type: openai, baseURL: "${openai.url}/v1", apiKeyEnv: PACK_OPENAI_KEY }
models:
  - { id: gpt-test, provider: openai }
review:
  lenses: [correctness]
  verify: false
crossExamination:
  enabled: false
`,
    );
    const run = await gadfly(
      "gadfly",
      ["review", "--config", configPath, "--format", "json", "--no-progress"],
      join(repository.root, "src"),
      userEnv({ PACK_OPENAI_KEY: KEY, GIT_CONFIG_GLOBAL: join(stage, "home", ".gitconfig") }),
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      verdict: string;
      findings: { file: string; title: string }[];
    };
    expect(report.verdict).toBe("Minor issues");
    expect(report.findings.map((finding) => finding.file)).toEqual(["src/limit.ts"]);
    expect(openai.callCount("gpt-test")).toBe(2);
  }, 60_000);

  it(
    "runs as a one-off from the tarball with npx, which picks the gadfly-review bin",
    async () => {
      // What `npx gadfly-review …` does once published: the bin named after the package.
      const run = await npm(
        ["exec", "--yes", "--prefer-offline", "--", `./${basename(tarball)}`, "--version"],
        stage,
      );
      expect(run.stderr).not.toMatch(/could not determine executable/);
      expect(run.code).toBe(0);
      expect(run.stdout.trim().split("\n").at(-1)).toBe(packageJson.version);
    },
    NPM_TIMEOUT_MS,
  );
});

describe("npm install --global from a checkout", () => {
  it(
    "links it without building again, and runs from any directory",
    async () => {
      // dist/ is the checkout's own build (npm ci, or npm pack above): --ignore-scripts skips
      // a second one.
      const linked = join(stage, "linked");
      const install = await npm(
        ["install", "--global", "--prefix", linked, "--ignore-scripts", checkout],
        join(stage, "elsewhere"),
      );
      expect(install.code).toBe(0);
      const run = await runProcess(join(linked, "bin", "gadfly"), ["help", "review"], {
        cwd: join(stage, "elsewhere"),
        env: userEnv(),
        timeoutMs: 30_000,
      });
      expect(run.code).toBe(0);
      expect(run.stdout.startsWith("Usage: gadfly review ")).toBe(true);
    },
    NPM_TIMEOUT_MS,
  );
});
