import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { OPENAI_KEY, type Stack } from "../test/e2e/harness.js";
import type { FakeModelRequest } from "../test/fakes/model-script.js";
import { runFloorChild } from "./run-floor-child.js";

/** One recorded model request: the server it went to and its JSON body as sent. */
export interface FloorCall {
  server: "ollama" | "openai";
  body: Record<string, unknown>;
}

/** What the child is given (as a JSON file). */
export interface FloorInput {
  ollamaHost: string;
  openaiBaseURL: string;
  apiKey: string;
  concurrency: number;
  warmups: number;
  replays: number;
  calls: FloorCall[];
}

/** What the child prints: its CPU (user + system) per replay of the round, ms. */
export interface FloorOutput {
  calls: number;
  cpuMs: number[];
  medianCpuMs: number;
  perCallMeanMs: number;
}

export interface ModelClientFloorOptions {
  /** The fakes the round's requests went to, still running: the replay goes to them too. */
  stack: Stack;
  /** The round's requests, each server's in arrival order. */
  round: { ollama: readonly FakeModelRequest[]; openai: readonly FakeModelRequest[] };
  /** The built app's `dist/main.js`: the child uses its `dist/http` fetch. */
  appEntry: string;
  /** The judged app's node flags (`npm start`'s). */
  nodeArgs: readonly string[];
  /** Calls in flight at once: the review concurrency of the bench config. */
  concurrency?: number;
}

const CHILD_SOURCE = fileURLToPath(new URL("./model-client-floor-child.ts", import.meta.url));
const PATHS = { ollama: "/api/chat", openai: "/v1/chat/completions" } as const;

/**
 * The CPU that making one round's model calls through the official clients costs on its own:
 * the floor under the app's CPU per round that no change to the app can go below while it
 * makes these calls with these clients. The round's recorded request bodies are replayed, as
 * recorded, from a separate process (so only the client side is counted; the fakes answer in
 * this one) that runs `npm start`'s node flags and plain JavaScript, with one `ollama` and one
 * `openai` client over the app's own fetch: 2 warm-up replays, then 7 timed with
 * `process.cpuUsage()`. Throws if any replayed call fails.
 */
export async function modelClientFloor(options: ModelClientFloorOptions): Promise<FloorOutput> {
  const calls = interleave(options.round.ollama, options.round.openai);
  const directory = await mkdtemp(join(tmpdir(), "gadfly-bench-client-floor-"));
  try {
    const input: FloorInput = {
      ollamaHost: options.stack.ollama.url,
      openaiBaseURL: `${options.stack.openai.url}/v1`,
      apiKey: OPENAI_KEY,
      concurrency: options.concurrency ?? 8,
      warmups: 2,
      replays: 7,
      calls,
    };
    const inputFile = join(directory, "input.json");
    await writeFile(inputFile, JSON.stringify(input));
    const fetchModule = join(dirname(options.appEntry), "http", "index.js");
    const { ollama, openai } = options.stack;
    const received = () => ollama.requests.length + openai.requests.length;
    const receivedBefore = received();
    const output = (await runFloorChild({
      source: CHILD_SOURCE,
      directory,
      nodeArgs: options.nodeArgs,
      args: [fetchModule, inputFile],
      what: "the client floor",
    })) as FloorOutput;
    // Every replay of every call reached these fakes, once: the CPU is for the round's work.
    const expected = calls.length * (input.warmups + input.replays);
    if (
      output.calls !== calls.length ||
      output.cpuMs.length !== input.replays ||
      received() - receivedBefore !== expected
    ) {
      throw new Error(
        `the client floor's replay is not the round's: ${received() - receivedBefore} requests reached the fakes, not ${expected}; the child said ${JSON.stringify(output)}`,
      );
    }
    return output;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * Both servers' requests in one list, each server's in its own order. Which of two concurrent
 * requests to different servers came first is not recorded; spreading each server's calls
 * evenly over the round keeps both clients busy throughout, as the app's reviewers do.
 */
function interleave(
  ollama: readonly FakeModelRequest[],
  openai: readonly FakeModelRequest[],
): FloorCall[] {
  const tagged = [
    ...ollama.map((request, index) => ({ request, server: "ollama" as const, index })),
    ...openai.map((request, index) => ({ request, server: "openai" as const, index })),
  ];
  const position = (call: (typeof tagged)[number]) =>
    (call.index + 0.5) / (call.server === "ollama" ? ollama.length : openai.length);
  return tagged
    .sort((left, right) => position(left) - position(right))
    .map(({ request, server }) => {
      if (request.path !== PATHS[server]) {
        throw new Error(`a ${server} request to ${request.path}, not ${PATHS[server]}`);
      }
      return { server, body: request.body };
    });
}
