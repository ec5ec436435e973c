import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { npmStartNodeArgs } from "../../bench/npm-start-node-args.js";
import { createOperationsHandler, startOperationsServer } from "../../src/server/index.js";
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
  const text = readFileSync(join(ROOT, "Dockerfile"), "utf8");

  it("builds every stage on one Node LTS, pinned by version and Debian release, with the classic builder", () => {
    const images = new Set(stages.map((stage) => stage.image));
    expect(images.size).toBe(1);
    const [image = ""] = [...images];
    const version = /^node:(\d+)\.(\d+)\.(\d+)-bookworm-slim$/.exec(image);
    expect(version, image).not.toBeNull();
    const major = Number(version?.[1]);
    expect(major).toBeGreaterThanOrEqual(22);
    expect(major % 2).toBe(0);
    expect(text).toMatch(/^ARG NODE_IMAGE=/m);
    for (const stage of stages) expect(text).toContain(`FROM \${NODE_IMAGE} AS ${stage.name}`);
    // A `# syntax=` line makes BuildKit fetch a frontend from a registry.
    expect(text).not.toMatch(/^#\s*syntax=/m);
  });

  it("compiles in the build stage with the dev dependencies, and copies only dist/ from it", () => {
    const build = stageNamed("build");
    const runs = argumentsOf(build, "RUN").join("\n");
    expect(runs).toMatch(/^npm ci --ignore-scripts\b/m);
    expect(runs).toMatch(/^npm run build$/m);
    expect(packageJson.scripts.build).toBe("tsc -p tsconfig.build.json");
    const buildConfig = JSON.parse(readFileSync(join(ROOT, "tsconfig.build.json"), "utf8")) as {
      compilerOptions: { outDir: string; rootDir: string };
    };
    expect(buildConfig.compilerOptions).toMatchObject({ outDir: "dist", rootDir: "src" });
    const fromBuild = copies(runtime).filter((copy) => copy.from === build.name);
    expect(fromBuild.flatMap((copy) => copy.sources)).toEqual(["/app/dist"]);
  });

  it("installs production dependencies without running or compiling anything, and keeps no build leftovers", () => {
    const runs = argumentsOf(stageNamed("deps"), "RUN").join("\n");
    expect(runs).toContain("npm ci --omit=dev --ignore-scripts");
    expect(runs).toContain("rm -rf deps src build binding.gyp");
    expect(runs).toContain('find prebuilds -type f ! -name "$addon" -delete');
    expect(runs).toContain("npm cache clean --force");
    // No compiler anywhere, no Node headers: nothing is built from source.
    expect(text).not.toMatch(/python3|\bmake\b|g\+\+|node-gyp|npm rebuild/);
    const runtimeRuns = argumentsOf(runtime, "RUN").join("\n");
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

  it("runs as the non-root node user, state and .env in the /data volume, Node itself as the command", () => {
    expect(argumentsOf(runtime, "USER")).toEqual(["node"]);
    const environment = argumentsOf(runtime, "ENV").join(" ");
    expect(environment).toMatch(/\bGADFLY_DATA_DIR=\/data\b/);
    expect(environment).toMatch(/\bGADFLY_ENV_FILE=\/data\/\.env\b/);
    expect(environment).toMatch(/\bHOST=0\.0\.0\.0\b/);
    // Setup mode works in the image: Probot refuses it under NODE_ENV=production.
    expect(environment).not.toMatch(/NODE_ENV=production/);
    expect(argumentsOf(runtime, "VOLUME")).toEqual(["/data"]);
    expect(argumentsOf(runtime, "EXPOSE")).toEqual(["3000"]);
    expect(argumentsOf(runtime, "STOPSIGNAL")).toEqual(["SIGTERM"]);
    // No npm and no shell between Docker and Gadfly: SIGTERM reaches its graceful shutdown.
    expect(JSON.parse(argumentsOf(runtime, "CMD")[0] ?? "null")).toEqual([
      "node",
      ...npmStartNodeArgs(),
      "dist/main.js",
    ]);
    expect(argumentsOf(runtime, "ENTRYPOINT")).toEqual([]);
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

    // What --heap-growing-percent saves is a figure of the bot-overhead bench
    // (docs/benchmarks.md), not of this test: a heap's peak depends on how far concurrent
    // marking keeps up, so on a loaded machine one run's peak is 40% off another's and a test
    // comparing them fails by load alone. Here: node accepts the flag as npm start writes it.
    it("keep a heap-growing factor node accepts", () => {
      const growing = flags.find((flag) => flag.startsWith("--heap-growing-percent="));
      expect(growing, "npm start's --heap-growing-percent").toBeDefined();
      expect(nodeWith(flags, "process.stdout.write('1')")).toBe(1);
    });
  });

  it("has a HEALTHCHECK for every role: ready (/readyz), or the setup page before the App exists", async () => {
    const healthcheck = argumentsOf(runtime, "HEALTHCHECK")[0] ?? "";
    const command = JSON.parse(healthcheck.slice(healthcheck.indexOf("CMD ") + 4)) as string[];
    expect(command).toEqual(["node", "dist/healthcheck.js"]);
    // A role's operations endpoints: ready passes, not ready fails.
    let ready = true;
    const operations = createOperationsHandler({
      ready: async () => {
        if (!ready) throw new Error("store down");
      },
      metrics: { render: async () => "" },
    });
    const port = await freePort();
    const server = await startOperationsServer(operations, { port, host: "127.0.0.1" });
    try {
      expect(await healthcheckExitCode(command, port)).toBe(0);
      ready = false;
      expect(await healthcheckExitCode(command, port)).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    // Setup mode: Probot's page, no /readyz.
    const setupPort = await freePort();
    const setup = createServer((request, response) => {
      response.writeHead(request.url === "/probot" ? 200 : 404).end();
    });
    await new Promise<void>((resolve) => setup.listen(setupPort, "127.0.0.1", resolve));
    try {
      expect(await healthcheckExitCode(command, setupPort)).toBe(0);
    } finally {
      await new Promise((resolve) => setup.close(resolve));
    }
    expect(await healthcheckExitCode(command, setupPort)).toBe(1);
  });
});
