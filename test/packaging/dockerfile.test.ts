import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { Probot, Server } from "probot";
import { describe, expect, it } from "vitest";
import { npmStartNodeArgs } from "../../bench/npm-start-node-args.js";
import { freePort } from "../helpers/free-port.js";
import { dockerIgnoreMatcher } from "./docker-ignore-matcher.js";
import { healthcheckExitCode } from "./healthcheck-exit-code.js";
import { parseCopyInstruction } from "./parse-copy-instruction.js";
import { type DockerStage, parseDockerfile } from "./parse-dockerfile.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const stages = parseDockerfile(readFileSync(join(ROOT, "Dockerfile"), "utf8"));
const isExcluded = dockerIgnoreMatcher(readFileSync(join(ROOT, ".dockerignore"), "utf8"));
const packageJson = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  files: string[];
  scripts: Record<string, string>;
};

function stageNamed(name: string): DockerStage {
  const stage = stages.find((candidate) => candidate.name === name);
  if (stage === undefined) throw new Error(`no stage ${name}`);
  return stage;
}

const runtime = stages.at(-1) as DockerStage;
const argumentsOf = (stage: DockerStage, keyword: string) =>
  stage.instructions
    .filter((instruction) => instruction.keyword === keyword)
    .map((instruction) => instruction.argument);
const copies = (stage: DockerStage) => argumentsOf(stage, "COPY").map(parseCopyInstruction);

describe("Dockerfile", () => {
  it("compiles in a node:20-slim build stage with the dev dependencies", () => {
    const build = stages[0] as DockerStage;
    expect(build.image).toBe("node:20-slim");
    const runs = argumentsOf(build, "RUN").join("\n");
    expect(runs).toMatch(/^npm ci\b/m);
    expect(runs).toMatch(/^npm run build$/m);
    // What `npm run build` writes is what the runtime copies from this stage.
    expect(packageJson.scripts.build).toBe("tsc -p tsconfig.build.json");
    const buildConfig = JSON.parse(readFileSync(join(ROOT, "tsconfig.build.json"), "utf8")) as {
      compilerOptions: { outDir: string; rootDir: string };
    };
    expect(buildConfig.compilerOptions).toMatchObject({ outDir: "dist", rootDir: "src" });
    const fromBuild = copies(runtime).filter((copy) => copy.from === build.name);
    expect(fromBuild.flatMap((copy) => copy.sources)).toEqual(["/app/dist"]);
  });

  it("runs on a supported LTS, with production dependencies and better-sqlite3 built for it", () => {
    const major = Number(/^node:(\d+)-slim$/.exec(runtime.image)?.[1]);
    expect(major).toBeGreaterThanOrEqual(22);
    expect(major % 2).toBe(0);
    const deps = stageNamed("deps");
    // Compiled on the runtime's own base image: the addon matches its Node ABI and C library.
    expect(deps.image).toBe(runtime.image);
    const runs = argumentsOf(deps, "RUN").join("\n");
    expect(runs).toContain("npm ci --omit=dev --ignore-scripts");
    expect(runs).toContain("npm rebuild better-sqlite3");
    expect(runs).toMatch(/python3.*make.*g\+\+/);
    // The compiler stays behind: the runtime stage installs bubblewrap (the agent CLIs'
    // sandbox) and nothing else.
    const runtimeRuns = argumentsOf(runtime, "RUN").join("\n");
    expect(runtimeRuns).not.toMatch(/npm (ci|install)|python3|make|g\+\+/);
    expect(
      [...runtimeRuns.matchAll(/apt-get install ([^&\n]*)/g)].map((match) => match[1]),
    ).toEqual(["-y --no-install-recommends bubblewrap "]);
    expect(runtimeRuns).toContain("rm -rf /var/lib/apt/lists/*");
    expect(copies(runtime).find((copy) => copy.from === "deps")?.sources).toEqual([
      "/app/node_modules",
    ]);
  });

  it("copies into the runtime every path of the published package, all present in the build context", () => {
    const fromContext = copies(runtime).filter((copy) => copy.from === null);
    const copied = [...fromContext.flatMap((copy) => copy.sources), "dist"];
    // `!path` entries leave a file out of the package; the rest must be in the image.
    for (const file of packageJson.files.filter((entry) => !entry.startsWith("!"))) {
      expect(copied).toContain(file);
    }
    for (const source of fromContext.flatMap((copy) => copy.sources)) {
      expect(existsSync(join(ROOT, source)), source).toBe(true);
      expect(isExcluded(source), source).toBe(false);
    }
    for (const copy of copies(stages[0] as DockerStage)) {
      for (const source of copy.sources) expect(isExcluded(source), source).toBe(false);
    }
    // `npm start` and the bin run what the build stage compiles from these sources; the node
    // flags of `npm start` are the ones the process-level benches run the app with.
    expect(packageJson.scripts.start).toBe(
      ["node", ...npmStartNodeArgs(), "dist/main.js"].join(" "),
    );
    expect(statSync(join(ROOT, "src/main.ts")).isFile()).toBe(true);
    expect(readFileSync(join(ROOT, "bin/gadfly.js"), "utf8")).toContain("../dist/cli/main.js");
    expect(statSync(join(ROOT, "src/cli/main.ts")).isFile()).toBe(true);
  });

  it("runs as the non-root node user, keeps state in the /data volume and starts with npm start", () => {
    const users = argumentsOf(runtime, "USER");
    expect(users).toEqual(["node"]);
    const environment = argumentsOf(runtime, "ENV").join(" ");
    expect(environment).toMatch(/\bGADFLY_DATA_DIR=\/data\b/);
    expect(environment).toMatch(/\bHOST=0\.0\.0\.0\b/);
    expect(argumentsOf(runtime, "VOLUME")).toEqual(["/data"]);
    expect(argumentsOf(runtime, "EXPOSE")).toEqual(["3000"]);
    expect(JSON.parse(argumentsOf(runtime, "CMD")[0] ?? "null")).toEqual(["npm", "start"]);
    // The volume's mount point must be writable by that user.
    expect(argumentsOf(runtime, "RUN").join("\n")).toMatch(/chown node:node \/data/);
    const userIndex = runtime.instructions.findIndex(
      (instruction) => instruction.keyword === "USER",
    );
    const cmdIndex = runtime.instructions.findIndex((instruction) => instruction.keyword === "CMD");
    expect(userIndex).toBeLessThan(cmdIndex);
  });

  describe("npm start's node flags (what they are worth: docs/benchmarks.md, bot overhead)", () => {
    const flags = npmStartNodeArgs();
    /** Runs a script in node with these flags (node refuses a misspelt one) and reads its output. */
    const nodeWith = (nodeFlags: string[], script: string) =>
      Number(execFileSync(process.execPath, [...nodeFlags, "-e", script], { encoding: "utf8" }));

    it("cap the young generation, smaller than node's own", () => {
      const semiSpace = flags
        .map((flag) => /^--max-semi-space-size=(\d+)$/.exec(flag)?.[1])
        .find((size) => size !== undefined);
      expect(semiSpace, "npm start's --max-semi-space-size").toBeDefined();
      // A burst of short-lived objects: V8 grows the new space (two semi-spaces) to its limit.
      const newSpaceAfterBurst = (nodeFlags: string[]) =>
        nodeWith(
          nodeFlags,
          `const kept = [];
for (let i = 0; i < 3e6; i++) { const o = { i, s: "x" + i }; if (i % 1000 === 0) kept.push(o); }
const space = require("node:v8").getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
process.stdout.write(String(space.space_size));`,
        );
      const capped = newSpaceAfterBurst(flags);
      expect(capped).toBeLessThanOrEqual(2 * Number(semiSpace) * 2 ** 20);
      expect(capped).toBeLessThan(newSpaceAfterBurst([]));
    });

    it("keep the heap of a process whose garbage outlives the young generation smaller than the small young generation alone", () => {
      // As in a round: ~20 MB stays live, and batches of objects live a while (promoted to the
      // old generation) before they die. A small young generation alone promotes more of them,
      // and V8 would let the old generation grow up to 4x its live size before collecting it:
      // ~73 MB here against 45-52 with npm start's flags. (Against plain node, whose large young
      // generation promotes little, the margin is a few MB and flips with GC timing: what the
      // flags save against node's defaults is the bot-overhead bench's figure, not this test's.)
      const semiSpaceAlone = flags.filter((flag) => flag.startsWith("--max-semi-space-size="));
      expect(semiSpaceAlone).toHaveLength(1);
      const peakHeapBytes = (nodeFlags: string[]) =>
        nodeWith(
          nodeFlags,
          `const v8 = require("node:v8");
const live = Array.from({ length: 200000 }, (_, i) => ({ i, s: "live" + i }));
const batches = [];
let peak = 0;
for (let round = 0; round < 400; round++) {
  batches.push(Array.from({ length: 2000 }, (_, i) => ({ round, i, s: "g" + i })));
  if (batches.length > 20) batches.shift();
  if (round % 10 === 0) peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
}
process.stdout.write(String(live.length > 0 ? peak : 0));`,
        );
      // By a margin two runs of the same flags never show (their peaks differ by a few %).
      expect(peakHeapBytes(flags)).toBeLessThan(0.85 * peakHeapBytes(semiSpaceAlone));
    });
  });

  it("has a HEALTHCHECK that passes against Probot's /ping and fails when nothing answers", async () => {
    const healthcheck = argumentsOf(runtime, "HEALTHCHECK")[0] ?? "";
    const command = JSON.parse(healthcheck.slice(healthcheck.indexOf("CMD ") + 4)) as string[];
    expect(command[0]).toBe("node");
    const port = await freePort();
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const server = new Server({
      host: "127.0.0.1",
      port,
      Probot: Probot.defaults({
        appId: 1,
        privateKey: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
        secret: "healthcheck-test",
      }),
      log: pino({ level: "silent" }),
    });
    await server.start();
    try {
      expect(await healthcheckExitCode(command, port)).toBe(0);
    } finally {
      await server.stop();
    }
    expect(await healthcheckExitCode(command, port)).toBe(1);
  });
});
