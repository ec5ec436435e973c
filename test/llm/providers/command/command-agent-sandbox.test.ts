import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SandboxConfig } from "../../../../src/config/schema.js";
import { ModelAbortedError, ModelError } from "../../../../src/llm/errors.js";
import { createCommandAgentModel } from "../../../../src/llm/providers/command/command-agent-model.js";
import {
  type AgentIsolation,
  detectIsolation,
  type IsolationLevel,
  SANDBOX_HOME,
  SANDBOX_WORKSPACE,
} from "../../../../src/sandbox/index.js";

const FAKE_CLI = fileURLToPath(new URL("../../../fakes/fake-agent-cli.mjs", import.meta.url));

let scratch: string;
let snapshot: string;
let runs: string;
const available = new Map<IsolationLevel, AgentIsolation>();

beforeAll(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "gadfly-agent-sandbox-")));
  // Passable like /tmp, so the `user` level's agent can reach its run directory.
  await chmod(scratch, 0o711);
  available.set("none", await detectIsolation(SandboxConfig.parse({ isolation: "none" })));
  if (process.getuid?.() === 0) {
    available.set("user", await detectIsolation(SandboxConfig.parse({ isolation: "user" })));
  }
  await detectIsolation(SandboxConfig.parse({ isolation: "bwrap" })).then(
    (isolation) => available.set("bwrap", isolation),
    (error: unknown) => console.log(`bwrap level not tested here: ${String(error)}`),
  );
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

beforeEach(async () => {
  snapshot = await mkdtemp(join(scratch, "snapshot-"));
  runs = await mkdtemp(join(scratch, "runs-"));
  await chmod(runs, 0o711);
  await writeFile(join(snapshot, "README.md"), "hello\n");
});

function agent(isolation: AgentIsolation, mode: string, extra: string[] = []) {
  return createCommandAgentModel({
    provider: {
      name: "fake-agent",
      command: [process.execPath, FAKE_CLI, "--mode", mode, ...extra],
      env: [],
    },
    modelId: "fake-agent/opus",
    model: "opus",
    env: { PATH: process.env.PATH, HOME: homedir(), LANG: "C.UTF-8" },
    isolation,
    temporaryRoot: runs,
    killGraceMs: 200,
  });
}

/** Host processes whose command line holds the marker, and their children, with their command lines. */
function processesMarked(marker: string): { pid: number; cmdline: string }[] {
  const marked: number[] = [];
  const parents = new Map<number, number>();
  const cmdlines = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      if (/^State:\s+Z/m.test(status)) continue;
      parents.set(Number(entry), Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0));
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      cmdlines.set(Number(entry), cmdline);
      if (cmdline.includes(marker)) {
        marked.push(Number(entry));
      }
    } catch {
      // Gone meanwhile.
    }
  }
  const children = [...parents].filter(([, parent]) => marked.includes(parent)).map(([pid]) => pid);
  return [...marked, ...children].map((pid) => ({ pid, cmdline: cmdlines.get(pid) ?? "" }));
}

/**
 * An npm global install as `npm install -g @fake/agent` lays it out: a bin link to the
 * wrapper script, and the wrapper starting its binary from the hoisted platform package
 * (as @openai/codex starts @openai/codex-linux-x64's). Readable by any user.
 */
async function npmStyleInstall(): Promise<string> {
  const prefix = await mkdtemp(join(scratch, "npm-prefix-"));
  await chmod(prefix, 0o755);
  const modules = join(prefix, "lib/node_modules/@fake");
  await mkdir(join(modules, "agent/bin"), { recursive: true });
  await mkdir(join(modules, "agent-linux-x64/bin"), { recursive: true });
  await mkdir(join(prefix, "bin"));
  await writeFile(join(modules, "agent/package.json"), '{"name":"@fake/agent"}\n');
  await writeFile(
    join(modules, "agent/bin/agent.js"),
    [
      "#!/usr/bin/env node",
      'const { createRequire } = require("node:module");',
      'const { spawnSync } = require("node:child_process");',
      'const path = require("node:path");',
      "let native;",
      "try {",
      '  native = path.join(path.dirname(require.resolve("@fake/agent-linux-x64/package.json")), "bin/native");',
      "} catch {",
      '  console.error("Missing optional dependency @fake/agent-linux-x64");',
      "  process.exit(1);",
      "}",
      'const run = spawnSync(native, process.argv.slice(2), { stdio: "inherit" });',
      "process.exit(run.status ?? 1);",
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  await writeFile(
    join(modules, "agent-linux-x64/package.json"),
    '{"name":"@fake/agent-linux-x64"}\n',
  );
  await writeFile(
    join(modules, "agent-linux-x64/bin/native"),
    '#!/bin/sh\nprintf "VERDICT: Clean\\nnative read: %s\\n" "$(cat README.md)"\n',
    { mode: 0o755 },
  );
  await symlink("../lib/node_modules/@fake/agent/bin/agent.js", join(prefix, "bin/fake-npm-agent"));
  return prefix;
}

/** Alive and not a zombie. */
function isAlive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

async function eventually(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(["none", "user", "bwrap"] as const)(
  "a command agent at isolation level %s",
  (level) => {
    const isolationOrSkip = (): AgentIsolation | null => {
      const isolation = available.get(level);
      if (isolation === undefined)
        console.log(`skipped: level ${level} cannot run on this machine`);
      return isolation ?? null;
    };

    it("gets a fresh, empty HOME with its XDG directories and TMPDIR inside, and a copy as cwd", async () => {
      const isolation = isolationOrSkip();
      if (isolation === null) return;
      const result = await agent(isolation, "home").run({ prompt: "p", cwd: snapshot });
      const seen = JSON.parse(result.text.replace(/^HOME-REPORT /, "")) as Record<string, unknown>;
      const home = String(seen.home);
      expect(home).not.toBe(homedir());
      if (level === "bwrap") {
        expect(home).toBe(SANDBOX_HOME);
        expect(seen.cwd).toBe(SANDBOX_WORKSPACE);
      } else {
        expect(home).toMatch(new RegExp(`^${runs}/gadfly-agent-[^/]+/home$`));
        expect(seen.cwd).toBe(join(home, "..", "workspace"));
      }
      expect(seen).toMatchObject({
        homeEntries: [".cache", ".config", ".local", "tmp"],
        xdgConfigHome: `${home}/.config`,
        xdgCacheHome: `${home}/.cache`,
        xdgDataHome: `${home}/.local/share`,
        tmpdir: `${home}/tmp`,
      });
      expect(await readdir(runs)).toEqual([]);
    });

    it("kills the agent and what it started when aborted, and deletes its copy and HOME", async () => {
      const isolation = isolationOrSkip();
      if (isolation === null) return;
      const marker = `gadfly-abort-marker-${level}-${Date.now()}`;
      const controller = new AbortController();
      const run = agent(isolation, "sleep-with-child", ["--marker", marker]).run({
        prompt: "p",
        cwd: snapshot,
        signal: controller.signal,
      });
      // The agent and the tool it started (a sleeping node -e) are both up.
      let started: { pid: number; cmdline: string }[] = [];
      await eventually(() => {
        started = processesMarked(marker);
        return started.some((process) => process.cmdline.includes("setInterval("));
      }, 10_000);
      expect((await readdir(runs)).length).toBe(1);
      controller.abort();
      await expect(run).rejects.toBeInstanceOf(ModelAbortedError);
      await eventually(() => started.every((process) => !isAlive(process.pid)));
      expect(processesMarked(marker)).toEqual([]);
      expect(await readdir(runs)).toEqual([]);
    });

    it("ends when the agent exits, though a setsid child it left holds its pipes: the child is killed, the directory deleted", async () => {
      const isolation = isolationOrSkip();
      if (isolation === null) return;
      const marker = `gadfly-setsid-marker-${level}-${Date.now()}`;
      const started = Date.now();
      const result = await agent(isolation, "leave-setsid-child", ["--marker", marker]).run({
        prompt: "p",
        cwd: snapshot,
      });
      // The child would sleep forever and never close the pipes: the run settled on exit.
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(result.text).toBe("answer while a setsid tool keeps running");
      expect(await readdir(runs)).toEqual([]);
      // SIGKILLed before the run settled; dying (and being reaped by init) takes a moment.
      await eventually(() => processesMarked(marker).length === 0, 1_000);
      // The same agent again: nothing of the first run is in the way.
      await expect(
        agent(isolation, "plain").run({ prompt: "again", cwd: snapshot }),
      ).resolves.toMatchObject({ text: expect.stringContaining("prompt=again") });
    });

    it("a Codex-style agent's shell tool reads a workspace file, and a failing one is counted as failed", async () => {
      const isolation = isolationOrSkip();
      if (isolation === null) return;
      const read = await agent(isolation, "codex-shell", ["--read", "README.md"]).run({
        prompt: "p",
        cwd: snapshot,
      });
      expect(read.text).toBe("VERDICT: Clean\nread: hello");
      expect(read.toolCalls).toEqual({ attempted: 1, failed: 0 });
      const blind = await agent(isolation, "codex-shell", ["--read", "no-such-file"]).run({
        prompt: "p",
        cwd: snapshot,
      });
      expect(blind.toolCalls).toEqual({ attempted: 1, failed: 1 });
    });

    it("any git the agent runs takes no bare-repository layout of the pull request for a repository: its fsmonitor never runs", async () => {
      const isolation = isolationOrSkip();
      if (isolation === null) return;
      // The pull request's files at the root of the copy: a bare repository's layout.
      await writeFile(join(snapshot, "HEAD"), "ref: refs/heads/main\n");
      await writeFile(
        join(snapshot, "config"),
        '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch fsmonitor-ran; false"\n',
      );
      await mkdir(join(snapshot, "objects"));
      await mkdir(join(snapshot, "refs/heads"), { recursive: true });
      await writeFile(join(snapshot, "objects/.keep"), "");
      await writeFile(join(snapshot, "refs/heads/.keep"), "");
      // The control: git run there as it would be without Gadfly runs the planted command.
      const control = await mkdtemp(join(scratch, "control-"));
      spawnSync("cp", ["-a", `${snapshot}/.`, control]);
      spawnSync("git", ["status"], {
        cwd: control,
        env: { PATH: process.env.PATH, HOME: control },
      });
      expect(readdirSync(control)).toContain("fsmonitor-ran");
      const result = await agent(isolation, "shell", [
        "--run",
        "git status 2>&1 | head -1; git config --get core.hooksPath; test -e fsmonitor-ran && echo PLANTED-RAN || echo NOT-RUN",
      ]).run({ prompt: "p", cwd: snapshot });
      expect(result.text).toContain("safe.bareRepository is 'explicit'");
      expect(result.text).toContain("/dev/null");
      expect(result.text).toContain("NOT-RUN");
      expect(result.text).not.toContain("PLANTED-RAN");
    });

    it("starts an npm-installed CLI whose wrapper runs a binary from a sibling platform package, which reads the workspace", async () => {
      const isolation = isolationOrSkip();
      if (isolation === null) return;
      const prefix = await npmStyleInstall();
      const model = createCommandAgentModel({
        provider: { name: "npm-agent", command: ["fake-npm-agent", "--model", "{model}"], env: [] },
        modelId: "npm-agent/m",
        model: "m",
        env: { PATH: `${prefix}/bin:${process.env.PATH}`, HOME: homedir(), LANG: "C.UTF-8" },
        isolation,
        temporaryRoot: runs,
        killGraceMs: 200,
      });
      const result = await model.run({ prompt: "p", cwd: snapshot });
      expect(result.text).toBe("VERDICT: Clean\nnative read: hello");
    });

    it("does not let a CLI searching upwards for .env find one planted above its run", async () => {
      const isolation = isolationOrSkip();
      if (isolation === null) return;
      // Where a `.env` could be planted by anyone: the (shared, writable) temporary directory.
      await writeFile(join(runs, ".env"), "FAKE_AGENT_STARTUP=echo PLANTED-ABOVE\n");
      // The control: a directory there without Gadfly's shield finds it.
      const bare = await mkdtemp(join(runs, "bare-"));
      const control = spawnSync(process.execPath, [FAKE_CLI, "--mode", "plain"], {
        cwd: bare,
        input: "p",
        encoding: "utf8",
      });
      expect(control.stdout).toContain("PLANTED-ABOVE");
      await rm(bare, { recursive: true });
      const result = await agent(isolation, "plain").run({ prompt: "p", cwd: snapshot });
      expect(result.text).toContain("prompt=p");
      expect(result.text).not.toContain("PLANTED-ABOVE");
      await rm(join(runs, ".env"));
    });

    it("deletes its copy and HOME when the agent fails", async () => {
      const isolation = isolationOrSkip();
      if (isolation === null) return;
      await expect(
        agent(isolation, "fail", ["--exit-code", "4"]).run({ prompt: "p", cwd: snapshot }),
      ).rejects.toThrow("exited with code 4");
      expect(await readdir(runs)).toEqual([]);
    });
  },
);

describe("preparing the workspace", () => {
  it("leaves out the default paths and the provider's removePaths, at any depth", async () => {
    const isolation = available.get("none");
    if (isolation === undefined) throw new Error("level none is always available");
    for (const path of [
      ".claude/settings.json",
      "pkg/.mcp.json",
      "pkg/.myagent/x.json",
      "src/a.ts",
    ]) {
      await mkdir(join(snapshot, path, ".."), { recursive: true });
      await writeFile(join(snapshot, path), "{}");
    }
    const model = createCommandAgentModel({
      provider: {
        name: "lister",
        command: ["/bin/sh", "-c", "find . | sort"],
        env: [],
        removePaths: [".myagent/"],
      },
      modelId: "lister",
      model: "m",
      env: { PATH: process.env.PATH },
      isolation,
      temporaryRoot: runs,
    });
    const result = await model.run({ prompt: "p", cwd: snapshot });
    expect(result.text.split("\n").filter((line) => line !== "")).toEqual([
      ".",
      "./README.md",
      "./pkg",
      "./src",
      "./src/a.ts",
    ]);
  });

  it("fails with a short reason and leaves nothing behind when the snapshot cannot be copied", async () => {
    const isolation = available.get("none");
    if (isolation === undefined) throw new Error("level none is always available");
    const error = await agent(isolation, "plain")
      .run({ prompt: "p", cwd: join(scratch, "no-such-snapshot") })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    // The detail (a path) stays in the cause, out of what the board shows.
    expect((error as ModelError).publicMessage).toBe(
      "fake-agent: could not prepare the agent's workspace",
    );
    expect(await readdir(runs)).toEqual([]);
  });
});
