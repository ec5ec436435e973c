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
 *   --model NAME             echoed by plain mode (checks `{model}` substitution)
 *   --pid-file PATH          where to write its pid (and the grandchild's, on a second line)
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

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

function startGrandchild(stdio) {
  return spawn(process.execPath, ["-e", "setInterval(() => {}, 60000)"], { stdio });
}

function line(value) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
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
  default:
    process.stderr.write(`unknown mode ${mode}\n`);
    process.exitCode = 2;
}
