import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NO_ISOLATION } from "../../src/sandbox/agent-isolation.js";
import { type AgentSandbox, openAgentSandbox } from "../../src/sandbox/open-agent-sandbox.js";

let scratch: string;
let snapshot: string;
let installed: string;
const opened: AgentSandbox[] = [];

async function executable(path: string): Promise<void> {
  await writeFile(path, "#!/bin/sh\nexit 0\n");
  await chmod(path, 0o755);
}

beforeEach(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "gadfly-open-sandbox-")));
  snapshot = join(scratch, "snapshot");
  installed = join(scratch, "installed");
  // The pull request's author ships an `agent` at the root and in node_modules/.bin.
  await mkdir(join(snapshot, "node_modules/.bin"), { recursive: true });
  await executable(join(snapshot, "agent"));
  await executable(join(snapshot, "node_modules/.bin/agent"));
  await mkdir(installed);
  await executable(join(installed, "agent"));
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.dispose()));
  await rm(scratch, { recursive: true, force: true });
});

async function open(command: string[], env: Record<string, string>): Promise<AgentSandbox> {
  const sandbox = await openAgentSandbox({
    snapshot,
    command,
    env,
    isolation: NO_ISOLATION,
    temporaryRoot: scratch,
  });
  opened.push(sandbox);
  return sandbox;
}

describe("openAgentSandbox's program, without bubblewrap", () => {
  it("never names a program the spawn would find in the pull request's copy", async () => {
    const relative = await open(["./agent", "--flag"], { PATH: installed });
    expect(relative.argv).toEqual([resolve("./agent"), "--flag"]);

    // Relative and empty PATH entries are the copy once the agent starts there.
    const searched = await open(["agent"], { PATH: `node_modules/.bin::${installed}` });
    expect(searched.argv[0]).toBe(join(installed, "agent"));

    const missing = await open(["agent"], { PATH: "node_modules/.bin" });
    expect(isAbsolute(missing.argv[0] ?? "")).toBe(true);
    expect(missing.argv[0]?.startsWith(missing.cwd)).toBe(false);
  });

  it("finds a bare name where the spawn would without PATH, and keeps the name it was given", async () => {
    const sandbox = await open(["sh", "-c", "exit 0"], {});
    expect(["/usr/bin/sh", "/bin/sh"]).toContain(sandbox.argv[0]);
    expect(sandbox.argv.slice(1)).toEqual(["-c", "exit 0"]);
  });

  it("inside bubblewrap too, a program it cannot find stays a path outside the copy", async () => {
    const sandbox = await openAgentSandbox({
      snapshot,
      command: ["./agent", "--flag"],
      env: { PATH: "node_modules/.bin" },
      isolation: { ...NO_ISOLATION, level: "bwrap", weakerBecause: null },
      temporaryRoot: scratch,
    });
    opened.push(sandbox);
    const command = sandbox.argv.slice(sandbox.argv.indexOf("--") + 1);
    // No ./agent where we run: the one named is the copy's, reached by its relative name.
    expect(command).toEqual([resolve("./agent"), "--flag"]);
  });
});
