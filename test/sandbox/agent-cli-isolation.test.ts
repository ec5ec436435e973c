import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SandboxConfig } from "../../src/config/schema.js";
import { createCommandAgentModel } from "../../src/llm/providers/command/command-agent-model.js";
import {
  type AgentIsolation,
  DEFAULT_REMOVED_PATHS,
  detectIsolation,
  type IsolationLevel,
  restrictToOwner,
} from "../../src/sandbox/index.js";
import {
  PROBE_FILE,
  type ProbeReport,
  type ProbeTargets,
  plantConfiguration,
  plantProbe,
  probeReport,
} from "./plant-probe.js";

const FAKE_CLI = fileURLToPath(new URL("../fakes/fake-agent-cli.mjs", import.meta.url));
const SECRET = `gadfly-private-key-${randomBytes(12).toString("hex")}`;

let scratch: string;
let targets: ProbeTargets;
/** Stands for Gadfly itself: a process holding the App's private key in its environment. */
let decoy: ChildProcess;
const levels: { level: IsolationLevel; isolation: AgentIsolation }[] = [];

beforeAll(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "gadfly-isolation-")));
  // Like /tmp, where runs are made in production: the agent's user may pass through it,
  // not list it. What it must not read is private below (0700).
  await chmod(scratch, 0o711);
  const dataDir = join(scratch, "data");
  const otherWorkspace = join(scratch, "other-workspace");
  await mkdir(dataDir);
  await mkdir(otherWorkspace, { mode: 0o700 });
  targets = {
    secret: SECRET,
    dataDir,
    dataMarker: `data-${randomBytes(8).toString("hex")}`,
    otherWorkspace,
    otherMarker: `workspace-${randomBytes(8).toString("hex")}`,
    realHome: homedir(),
  };
  await writeFile(join(dataDir, "marker"), targets.dataMarker);
  await writeFile(join(otherWorkspace, "marker"), targets.otherMarker);
  // As start-up does to the real data directory.
  await restrictToOwner(dataDir);
  decoy = spawn(process.execPath, ["-e", "setInterval(() => {}, 60000)"], {
    env: { PATH: process.env.PATH, GADFLY_DECOY_PRIVATE_KEY: SECRET },
    stdio: "ignore",
  });

  levels.push({ level: "none", isolation: await detectIsolation(sandbox("none")) });
  if (process.getuid?.() === 0) {
    levels.push({ level: "user", isolation: await detectIsolation(sandbox("user")) });
  } else {
    console.log("isolation level user not tested: these tests do not run as root");
  }
  try {
    levels.push({ level: "bwrap", isolation: await detectIsolation(sandbox("bwrap")) });
  } catch (error) {
    console.log(
      `isolation level bwrap not tested: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  console.log(`isolation levels exercised: ${levels.map((entry) => entry.level).join(", ")}`);
});

afterAll(async () => {
  decoy?.kill("SIGKILL");
  await rm(scratch, { recursive: true, force: true });
});

let snapshot: string;
let runs: string;

beforeEach(async () => {
  snapshot = await mkdtemp(join(scratch, "snapshot-"));
  runs = await mkdtemp(join(scratch, "runs-"));
  await chmod(runs, 0o711);
  await writeFile(join(snapshot, "README.md"), "# A pull request\n");
  await plantProbe(snapshot, targets);
});

function sandbox(isolation: IsolationLevel): SandboxConfig {
  return SandboxConfig.parse({ isolation });
}

function isolationFor(level: IsolationLevel): AgentIsolation {
  const found = levels.find((entry) => entry.level === level);
  if (found === undefined) {
    throw new Error(`level ${level} is not available here`);
  }
  return found.isolation;
}

function agent(isolation: AgentIsolation, command: string[]) {
  return createCommandAgentModel({
    provider: { name: "fake-agent", command, env: [] },
    modelId: "fake-agent/opus",
    model: "opus",
    env: { PATH: process.env.PATH, HOME: homedir(), LANG: "C.UTF-8" },
    isolation,
    temporaryRoot: runs,
  });
}

function fakeCli(mode = "plain"): string[] {
  return [process.execPath, FAKE_CLI, "--mode", mode, "--model", "{model}"];
}

/** Nothing of the host a hostile pull request could use. */
function expectNothingReached(report: ProbeReport): void {
  expect(report.secretInEnvironOf).toEqual([]);
  expect(report.secretInOwnEnvironment).toBe(false);
  expect(report.dataMarkerRead).toBe(false);
  expect(report.dataDirListed).toBe(false);
  expect(report.otherMarkerRead).toBe(false);
  expect(report.realHomeWritten).toBe(false);
}

describe("the fake agent CLI and its probe (the control: without Gadfly, a planted config runs)", () => {
  it("loads every path Gadfly removes, so each removal below is tested", () => {
    const result = spawnSync(process.execPath, [FAKE_CLI, "--mode", "config-paths"], {
      input: "",
      encoding: "utf8",
    });
    const known = JSON.parse(result.stdout) as string[];
    expect(known).toEqual(expect.arrayContaining([...DEFAULT_REMOVED_PATHS]));
  });

  it.each([...DEFAULT_REMOVED_PATHS])(
    "%s planted in a tree runs the probe, which finds Gadfly's secret when nothing isolates it",
    async (configPath) => {
      await plantConfiguration(snapshot, configPath);
      const result = spawnSync(process.execPath, [FAKE_CLI, "--mode", "plain"], {
        cwd: snapshot,
        input: "p",
        encoding: "utf8",
        env: { PATH: process.env.PATH, HOME: homedir() },
      });
      const report = probeReport(result.stdout);
      expect(report).not.toBeNull();
      // Run as ourselves, a hook reads our processes' environments: what the sandbox is for.
      expect(report?.secretInEnvironOf).toContain(decoy.pid);
    },
  );
});

describe.each(["none", "user", "bwrap"] as const)("at isolation level %s", (level) => {
  const available = () => levels.some((entry) => entry.level === level);

  it.each([...DEFAULT_REMOVED_PATHS])(
    "a PR's %s runs nothing, or what runs reaches nothing of the host",
    async (configPath) => {
      if (!available()) {
        console.log(`skipped: isolation level ${level} cannot run on this machine`);
        return;
      }
      await plantConfiguration(snapshot, configPath);
      const result = await agent(isolationFor(level), fakeCli()).run({
        prompt: "Review this PR.",
        cwd: snapshot,
      });
      expect(result.text).toContain("prompt=Review this PR.");
      const report = probeReport(result.text);
      if (report !== null) {
        expectNothingReached(report);
      }
      expect(await readdir(runs)).toEqual([]);
    },
  );
});

describe.each(["user", "bwrap"] as const)(
  "at isolation level %s, even a hostile agent itself",
  (level) => {
    it("reaches no process environment, data directory, other workspace or real HOME", async () => {
      if (!levels.some((entry) => entry.level === level)) {
        console.log(`skipped: isolation level ${level} cannot run on this machine`);
        return;
      }
      // The CLI itself runs the probe: whatever a hook or a tool call could do, it does.
      const result = await agent(isolationFor(level), [process.execPath, PROBE_FILE]).run({
        prompt: "p",
        cwd: snapshot,
      });
      const report = probeReport(result.text);
      console.log(`${level}: the hostile agent's probe reported ${JSON.stringify(report)}`);
      expect(report).not.toBeNull();
      if (report !== null) {
        expectNothingReached(report);
        if (level === "user") {
          expect(report.uid).toBe(65534);
        }
      }
    });
  },
);
