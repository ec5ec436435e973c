#!/usr/bin/env node
/**
 * A stand-in for an agent CLI (Claude Code, Codex…) in tests of the `command` provider.
 * Reads the prompt on stdin; what it does is chosen by argv:
 *
 *   --mode plain             prints model, cwd and the prompt as plain text
 *   --mode claude-stream     prints a Claude Code `stream-json` transcript
 *   --mode generic-jsonl     prints generic {"role","content"} JSON lines
 *   --mode env               prints "ENV " and the sorted names of its environment
 *   --mode fail              writes to stderr (the value of FAKE_AGENT_SECRET included), exits --exit-code (1)
 *   --mode huge              prints --bytes (2000) bytes
 *   --mode sleep             sleeps until killed
 *   --mode sleep-ignore-term sleeps, ignoring SIGTERM
 *   --mode sleep-with-child  starts a grandchild, then both sleep
 *   --mode leave-child       starts a grandchild that holds stdout open, answers, exits 0
 *   --mode leave-setsid-child  the same, the grandchild in a session (and group) of its own
 *   --mode shell             runs `sh -c <--run>` in its working directory, prints what it printed
 *   --mode codex-shell       like Codex --json: runs `sh -c "cat <--read>"` as its shell tool,
 *                            prints the command_execution item and an answer quoting the output
 *   --mode home              prints "HOME-REPORT " and HOME, XDG_*, TMPDIR, what HOME holds, as JSON
 *   --mode config-paths      prints the project configuration paths it loads, as JSON
 *   --model NAME             echoed by plain mode (checks `{model}` substitution)
 *   --pid-file PATH          where to write its pid (and the grandchild's, on a second line)
 *   --marker TEXT            ignored: puts TEXT in its command line, for tests to find it in /proc
 *
 * Like the real CLIs, before anything else it loads project configuration from its
 * working directory and runs every command it finds there: Claude Code hooks
 * (`.claude/settings.json`), MCP servers (`.mcp.json`, `.gemini/settings.json`,
 * `.cursor/mcp.json`, `.vscode/mcp.json`…), Codex `config.toml` servers, Copilot
 * `.github/hooks/*.json`, aider's `lint-cmd`, a `.env` there or, failing that, the nearest
 * one above it (as Gemini CLI searches; its FAKE_AGENT_STARTUP stands for what an
 * environment file can make a CLI run: NODE_OPTIONS, a proxy…).
 * Hooks run through `/bin/sh -c`, servers are spawned directly, each waited for; what
 * they print goes into the answer, as Claude Code puts SessionStart output in context.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const options = parseArguments(process.argv.slice(2));
const mode = options.get("mode") ?? "plain";

function parseArguments(argv) {
  const parsed = new Map();
  for (let index = 0; index < argv.length; index += 2) {
    parsed.set(argv[index].replace(/^--/, ""), argv[index + 1] ?? "");
  }
  return parsed;
}

function readStdin() {
  return new Promise((resolve) => {
    const chunks = [];
    process.stdin.on("data", (chunk) => chunks.push(chunk));
    process.stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

function writePids(...pids) {
  const file = options.get("pid-file");
  if (file) {
    writeFileSync(file, `${pids.join("\n")}\n`);
  }
}

function sleepForever() {
  setInterval(() => {}, 60_000);
}

function startGrandchild(stdio, detached = false) {
  // The marker goes on too, so a test finds the grandchild once it is no longer our child.
  const marker = options.has("marker") ? [options.get("marker")] : [];
  return spawn(process.execPath, ["-e", "setInterval(() => {}, 60000)", ...marker], {
    stdio,
    detached,
  });
}

function line(value) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/**
 * Every project configuration path it loads, relative to its working directory. Kept in
 * step with Gadfly's DEFAULT_REMOVED_PATHS by a test: a path Gadfly removes must be one
 * this fake would otherwise load, or the removal is untested.
 */
const PROJECT_CONFIG_PATHS = [
  ".claude/",
  ".mcp.json",
  ".codex/",
  ".agents/",
  ".gemini/",
  ".env",
  ".qwen/",
  ".cursor/",
  ".github/hooks/",
  ".github/mcp.json",
  ".github/copilot/",
  ".vscode/mcp.json",
  "opencode.json",
  "opencode.jsonc",
  ".opencode/",
  "crush.json",
  ".crush.json",
  ".aider.conf.yml",
  ".aider.model.settings.yml",
  ".aider.model.metadata.json",
  ".continue/",
  ".kiro/",
  ".roo/",
  ".windsurf/",
];

/** Commands one configuration file asks for: {shell} through /bin/sh -c, {argv} spawned. */
function commandsIn(file) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const name = file.split("/").at(-1);
  if (name === ".env") {
    const found = [];
    for (const line of text.split("\n")) {
      const match = /^\s*FAKE_AGENT_STARTUP\s*=\s*(.*)$/.exec(line);
      if (match) found.push({ shell: match[1].replace(/^["']|["']$/g, "") });
    }
    return found;
  }
  if (name.endsWith(".toml")) {
    // Codex: [mcp_servers.NAME] command = "..." args = [...]; notify = [...]
    const found = [];
    for (const match of text.matchAll(/^\s*command\s*=\s*"([^"]*)"\s*$/gm)) {
      const after = text.slice(match.index);
      const args = /^\s*args\s*=\s*(\[.*\])\s*$/m.exec(after);
      found.push({ argv: [match[1], ...(args ? JSON.parse(args[1]) : [])] });
    }
    return found;
  }
  if (name.endsWith(".yml") || name.endsWith(".yaml")) {
    // aider runs its lint and test commands itself.
    return [...text.matchAll(/^\s*(?:lint-cmd|test-cmd|command)\s*:\s*(.+)$/gm)].map((match) => ({
      shell: match[1].trim().replace(/^["']|["']$/g, ""),
    }));
  }
  let json;
  try {
    json = JSON.parse(text.replace(/^\s*\/\/.*$/gm, ""));
  } catch {
    return [];
  }
  const found = [];
  const visit = (value) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== "object") return;
    // A hook: Claude Code {type:"command", command}, Copilot {bash}, Cursor {command}.
    if (typeof value.bash === "string") found.push({ shell: value.bash });
    if (typeof value.command === "string") {
      found.push(
        Array.isArray(value.args)
          ? { argv: [value.command, ...value.args] }
          : { shell: value.command },
      );
    }
    for (const child of Object.values(value)) visit(child);
  };
  visit(json);
  return found;
}

/** Every file under a configuration path, as a CLI scanning its settings directory would. */
function filesUnder(path, depth = 0) {
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return [];
  }
  if (!stats.isDirectory()) return [path];
  if (depth > 4) return [];
  return readdirSync(path).flatMap((entry) => filesUnder(join(path, entry), depth + 1));
}

/**
 * Like Gemini CLI, the nearest `.env` from the working directory upwards (the working
 * directory's own is among PROJECT_CONFIG_PATHS).
 */
function nearestEnvAbove(directory) {
  const parent = dirname(directory);
  if (parent === directory) return [];
  const candidate = join(parent, ".env");
  return existsSync(candidate) ? [candidate] : nearestEnvAbove(parent);
}

function loadProjectConfiguration() {
  const outputs = [];
  const cwdEnv = join(process.cwd(), ".env");
  const sources = PROJECT_CONFIG_PATHS.map((configPath) => join(process.cwd(), configPath));
  if (!existsSync(cwdEnv)) sources.push(...nearestEnvAbove(process.cwd()));
  for (const path of sources) {
    if (!existsSync(path)) continue;
    for (const file of filesUnder(path)) {
      for (const command of commandsIn(file)) {
        const result = command.shell
          ? spawnSync("/bin/sh", ["-c", command.shell], { encoding: "utf8", timeout: 20_000 })
          : spawnSync(command.argv[0], command.argv.slice(1), {
              encoding: "utf8",
              timeout: 20_000,
            });
        outputs.push(`${result.stdout ?? ""}${result.stderr ?? ""}`);
      }
    }
  }
  return outputs.join("");
}

const hookOutput = loadProjectConfiguration();
if (hookOutput !== "") {
  process.stdout.write(`hook output: ${hookOutput}\n`);
}

const prompt = await readStdin();

switch (mode) {
  case "plain":
    process.stdout.write(`model=${options.get("model")}\ncwd=${process.cwd()}\nprompt=${prompt}\n`);
    break;
  case "claude-stream":
    line({ type: "system", subtype: "init", model: options.get("model"), tools: ["Read"] });
    line({
      type: "assistant",
      message: {
        id: "msg_1",
        role: "assistant",
        content: [{ type: "text", text: "Let me read the file." }],
      },
    });
    line({
      type: "assistant",
      message: {
        id: "msg_1",
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "src/a.ts" } },
        ],
      },
    });
    line({
      type: "user",
      message: {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_1",
            content: [{ type: "text", text: "export const a = 1;" }],
          },
        ],
      },
    });
    line({
      type: "assistant",
      message: {
        id: "msg_2",
        role: "assistant",
        content: [{ type: "text", text: "VERDICT: Minor issues\n```gadfly-findings\n[]\n```" }],
      },
    });
    line({
      type: "assistant",
      message: {
        id: "msg_3",
        role: "assistant",
        content: [{ type: "text", text: "I already delivered the full verdict above." }],
      },
    });
    line({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "I already delivered the full verdict above.",
      usage: { input_tokens: 100, cache_read_input_tokens: 20, output_tokens: 30 },
    });
    break;
  case "generic-jsonl":
    line({
      role: "assistant",
      content: "Looking for uses.",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "grep", arguments: '{"pattern":"x"}' } },
      ],
    });
    line({ role: "tool", tool_call_id: "c1", content: "src/a.ts:1:x" });
    line({
      role: "assistant",
      content: "Final answer",
      usage: { prompt_tokens: 7, completion_tokens: 3 },
    });
    break;
  case "env":
    process.stdout.write(`ENV ${JSON.stringify(Object.keys(process.env).sort())}\n`);
    break;
  case "fail":
    process.stderr.write("starting review\n");
    process.stderr.write(
      `Error: authentication failed with key ${process.env.FAKE_AGENT_SECRET ?? "(none)"}\n`,
    );
    process.exitCode = Number(options.get("exit-code") ?? "1");
    break;
  case "home": {
    const home = process.env.HOME ?? "";
    process.stdout.write(
      `HOME-REPORT ${JSON.stringify({
        home,
        homeEntries: existsSync(home) ? readdirSync(home).sort() : null,
        xdgConfigHome: process.env.XDG_CONFIG_HOME,
        xdgCacheHome: process.env.XDG_CACHE_HOME,
        xdgDataHome: process.env.XDG_DATA_HOME,
        tmpdir: process.env.TMPDIR,
        cwd: process.cwd(),
      })}\n`,
    );
    break;
  }
  case "config-paths":
    process.stdout.write(`${JSON.stringify(PROJECT_CONFIG_PATHS)}\n`);
    break;
  case "huge":
    process.stdout.write("x".repeat(Number(options.get("bytes") ?? "2000")));
    break;
  case "sleep":
    writePids(process.pid);
    sleepForever();
    break;
  case "sleep-ignore-term":
    process.on("SIGTERM", () => {});
    writePids(process.pid);
    sleepForever();
    break;
  case "sleep-with-child": {
    const grandchild = startGrandchild("ignore");
    writePids(process.pid, grandchild.pid);
    sleepForever();
    break;
  }
  case "leave-child": {
    const grandchild = startGrandchild(["ignore", "inherit", "ignore"]);
    grandchild.unref();
    writePids(process.pid, grandchild.pid);
    process.stdout.write("answer while a tool keeps running\n");
    break;
  }
  case "shell": {
    const run = spawnSync("/bin/sh", ["-c", options.get("run") ?? "true"], { encoding: "utf8" });
    process.stdout.write(`${run.stdout ?? ""}${run.stderr ?? ""}`);
    break;
  }
  case "codex-shell": {
    const command = `cat ${options.get("read") ?? "README.md"}`;
    const run = spawnSync("/bin/sh", ["-c", command], { encoding: "utf8" });
    const output = `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? String(run.error) : ""}`;
    const exitCode = run.status ?? 1;
    line({ type: "thread.started", thread_id: "t" });
    line({
      type: "item.completed",
      item: {
        id: "item_0",
        type: "command_execution",
        command,
        aggregated_output: output,
        exit_code: exitCode,
        status: exitCode === 0 ? "completed" : "failed",
      },
    });
    line({
      type: "item.completed",
      item: { id: "item_1", type: "agent_message", text: `VERDICT: Clean\nread: ${output.trim()}` },
    });
    line({ type: "turn.completed", usage: { input_tokens: 10, output_tokens: 5 } });
    break;
  }
  case "leave-setsid-child": {
    // detached: the grandchild calls setsid(), out of the process group Gadfly kills.
    const grandchild = startGrandchild(["ignore", "inherit", "inherit"], true);
    grandchild.unref();
    writePids(process.pid, grandchild.pid);
    process.stdout.write("answer while a setsid tool keeps running\n");
    break;
  }
  default:
    process.stderr.write(`unknown mode ${mode}\n`);
    process.exitCode = 2;
}
