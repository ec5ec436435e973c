import { readdirSync, readFileSync } from "node:fs";
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  writeFile,
} from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SandboxConfig } from "../../src/config/schema.js";
import { createCommandAgentModel } from "../../src/llm/providers/command/command-agent-model.js";
import {
  type AgentIsolation,
  detectIsolation,
  type IsolationLevel,
  SharedScrubbedCopies,
} from "../../src/sandbox/index.js";

const FAKE_CLI = fileURLToPath(new URL("../fakes/fake-agent-cli.mjs", import.meta.url));

let scratch: string;
let snapshot: string;
let runs: string;
let rounds: string;
const available = new Map<IsolationLevel, AgentIsolation>();

beforeAll(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "gadfly-shared-copies-")));
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
  rounds = await mkdtemp(join(scratch, "rounds-"));
  await chmod(runs, 0o711);
  await chmod(rounds, 0o711);
  await writeFile(join(snapshot, "README.md"), "original\n");
  await mkdir(join(snapshot, "src"));
  await writeFile(join(snapshot, "src/a.ts"), "export const a = 1;\n");
  await mkdir(join(snapshot, ".claude"));
  await writeFile(join(snapshot, ".claude/settings.json"), "{}");
});

function shell(isolation: AgentIsolation, run: string, writesWorkspace = false) {
  return createCommandAgentModel({
    provider: {
      name: "fake-agent",
      command: [process.execPath, FAKE_CLI, "--mode", "shell", "--run", run],
      env: [],
      writesWorkspace,
    },
    modelId: "fake-agent/opus",
    model: "opus",
    env: { PATH: process.env.PATH, HOME: homedir(), LANG: "C.UTF-8" },
    isolation,
    temporaryRoot: runs,
    killGraceMs: 200,
  });
}

// What a hostile run tries, as itself and then by giving itself the write bits back.
const TAMPER =
  "echo changed > README.md; rm -f src/a.ts; touch planted; " +
  "chmod -R u+w . 2>/dev/null; echo changed > README.md; rm -rf src; touch planted; echo tried";
const LOOK = 'cat README.md; ls -A; ls src; echo tmp > "$TMPDIR/x" && cat "$TMPDIR/x"';

describe.each(["user", "bwrap"] as const)("a round's shared copy at level %s", (level) => {
  it("is copied once for every run, and no run changes what the next one sees", async () => {
    const isolation = available.get(level);
    if (isolation === undefined) {
      console.log(`skipped: isolation level ${level} cannot run on this machine`);
      return;
    }
    const copies = new SharedScrubbedCopies(rounds);
    try {
      const tampered = await shell(isolation, TAMPER).run({
        prompt: "p",
        cwd: snapshot,
        sharedCopies: copies,
      });
      expect(tampered.text).toContain("tried");
      const seen = await shell(isolation, LOOK).run({
        prompt: "p",
        cwd: snapshot,
        sharedCopies: copies,
      });
      // The original file, the deleted one still there, nothing planted, .claude scrubbed;
      // the run's own TMPDIR is writable.
      expect(seen.text).toBe("original\nREADME.md\nsrc\na.ts\ntmp");
      // One round directory holding one copy, the runs' own directories gone.
      const [round, ...others] = await readdir(rounds);
      expect(others).toEqual([]);
      expect((await readdir(join(rounds, round ?? ""))).sort()).toEqual([".env", "workspace-0"]);
      expect(await readdir(runs)).toEqual([]);
    } finally {
      await copies.close();
    }
    expect(await readdir(rounds)).toEqual([]);
    expect(await readFile(join(snapshot, "README.md"), "utf8")).toBe("original\n");
  });

  it("a tool a run left behind (setsid) is still killed when the run ends", async () => {
    const isolation = available.get(level);
    if (isolation === undefined) return;
    const copies = new SharedScrubbedCopies(rounds);
    const marker = `gadfly-shared-setsid-${level}-${Date.now()}`;
    try {
      const model = createCommandAgentModel({
        provider: {
          name: "fake-agent",
          command: [process.execPath, FAKE_CLI, "--mode", "leave-setsid-child", "--marker", marker],
          env: [],
        },
        modelId: "fake-agent/opus",
        model: "opus",
        env: { PATH: process.env.PATH, HOME: homedir(), LANG: "C.UTF-8" },
        isolation,
        temporaryRoot: runs,
        killGraceMs: 200,
      });
      const started = Date.now();
      await model.run({ prompt: "p", cwd: snapshot, sharedCopies: copies });
      expect(Date.now() - started).toBeLessThan(3_000);
      await eventually(() => marked(marker) === 0, 1_000);
    } finally {
      await copies.close();
    }
  });
});

// What a CLI that keeps a scratch file beside the code does, then what it reads back.
const WRITE_HERE =
  'if echo scratch > .agent-scratch 2>/dev/null && echo edited >> README.md 2>/dev/null; then cat .agent-scratch README.md; else echo "cannot write in $(pwd)"; fi';

describe.each(["user", "bwrap"] as const)(
  "an agent that writes in its cwd, at level %s",
  (level) => {
    it("cannot in the round's shared copy, and can with writesWorkspace, in a copy no other run sees", async () => {
      const isolation = available.get(level);
      if (isolation === undefined) {
        console.log(`skipped: isolation level ${level} cannot run on this machine`);
        return;
      }
      const copies = new SharedScrubbedCopies(rounds);
      try {
        const refused = await shell(isolation, WRITE_HERE).run({
          prompt: "p",
          cwd: snapshot,
          sharedCopies: copies,
        });
        expect(refused.text).toMatch(/^cannot write in /);
        const wrote = await shell(isolation, `${WRITE_HERE}; ls -A`, true).run({
          prompt: "p",
          cwd: snapshot,
          sharedCopies: copies,
        });
        // Its own copy, scrubbed like the shared one (.claude gone), and writable.
        expect(wrote.text).toBe("scratch\noriginal\nedited\n.agent-scratch\nREADME.md\nsrc");
        // The round's copy and the snapshot are as they were; the writable copy went with its run.
        const seen = await shell(isolation, LOOK).run({
          prompt: "p",
          cwd: snapshot,
          sharedCopies: copies,
        });
        expect(seen.text).toBe("original\nREADME.md\nsrc\na.ts\ntmp");
        expect(await readdir(runs)).toEqual([]);
        const [round] = await readdir(rounds);
        expect((await readdir(join(rounds, round ?? ""))).sort()).toEqual([".env", "workspace-0"]);
      } finally {
        await copies.close();
      }
      expect(await readFile(join(snapshot, "README.md"), "utf8")).toBe("original\n");
    });
  },
);

describe("at level none", () => {
  it("each run keeps a copy of its own: the agent is us, and no mode bit would stop it", async () => {
    const isolation = available.get("none");
    if (isolation === undefined) throw new Error("none is always available");
    const copies = new SharedScrubbedCopies(rounds);
    try {
      await shell(isolation, TAMPER).run({ prompt: "p", cwd: snapshot, sharedCopies: copies });
      const seen = await shell(isolation, LOOK).run({
        prompt: "p",
        cwd: snapshot,
        sharedCopies: copies,
      });
      expect(seen.text).toBe("original\nREADME.md\nsrc\na.ts\ntmp");
      expect(await readdir(rounds)).toEqual([]);
    } finally {
      await copies.close();
    }
  });
});

describe("SharedScrubbedCopies", () => {
  it("makes one copy for concurrent requests, one per set of rules, and deletes all on close", async () => {
    const copies = new SharedScrubbedCopies(rounds);
    const [first, second, other] = await Promise.all([
      copies.acquire({ snapshot, removePaths: [".claude/"] }),
      copies.acquire({ snapshot, removePaths: [".claude/", ".claude/"] }),
      copies.acquire({ snapshot, removePaths: [] }),
    ]);
    expect(second.path).toBe(first.path);
    expect(other.path).not.toBe(first.path);
    expect(first.removed).toEqual([".claude"]);
    expect(await readdir(first.path)).toEqual(["README.md", "src"]);
    expect(await readdir(other.path)).toContain(".claude");
    await copies.close();
    expect(await readdir(rounds)).toEqual([]);
    await copies.close();
    await expect(copies.acquire({ snapshot, removePaths: [] })).rejects.toThrow(/already deleted/);
  });

  it("a copy that fails leaves nothing, and the next request tries again", async () => {
    const copies = new SharedScrubbedCopies(rounds);
    const missing = join(scratch, "no-such-snapshot");
    await expect(copies.acquire({ snapshot: missing, removePaths: [] })).rejects.toThrow();
    const copy = await copies.acquire({ snapshot, removePaths: [] });
    expect(await readFile(join(copy.path, "README.md"), "utf8")).toBe("original\n");
    await copies.close();
    expect(await readdir(rounds)).toEqual([]);
  });
});

function marked(marker: string): number {
  let count = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (/^State:\s+Z/m.test(readFileSync(`/proc/${entry}/status`, "utf8"))) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker)) count++;
    } catch {
      // Gone meanwhile.
    }
  }
  return count;
}

async function eventually(check: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
