/**
 * The child of bench/model-client-floor.ts: replays one round's recorded model requests through
 * the official `ollama` and `openai` clients over the app's own fetch, and prints the CPU this
 * process spent on them. It is TypeScript so `tsc` checks it against the clients' and src/http's
 * types; the parent builds it with esbuild (as build-app.ts builds src/), so the measured
 * process runs plain JavaScript with `npm start`'s node flags and no TypeScript loader.
 * argv: the built app's `dist/http/index.js`, then the input file (FloorInput as JSON).
 * stdout: one line of JSON, FloorOutput.
 */
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { type ChatRequest, Ollama } from "ollama";
import OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { FloorCall, FloorInput, FloorOutput } from "./model-client-floor.js";

const [fetchModule, inputFile] = process.argv.slice(2);
if (fetchModule === undefined || inputFile === undefined) {
  throw new Error("usage: model-client-floor-child <dist/http/index.js> <input.json>");
}
// Imported from the build by path: this file is built on its own, apart from src/.
const http = (await import(
  pathToFileURL(fetchModule).href
)) as typeof import("../src/http/index.js");
const input = JSON.parse(await readFile(inputFile, "utf8")) as FloorInput;

// One fetch for both clients, as the app shares one per process (src/boot/start-gadfly.ts).
const fetch = http.createNodeFetch();
const ollama = new Ollama({ host: input.ollamaHost, fetch });
const openai = new OpenAI({
  baseURL: input.openaiBaseURL,
  apiKey: input.apiKey,
  fetch,
  maxRetries: 0,
});

/** Sends one recorded body as recorded; throws unless the server answered with a message. */
async function send(call: FloorCall): Promise<void> {
  if (call.server === "ollama") {
    if (call.body.stream !== false) throw new Error("an Ollama body without `stream: false`");
    const response = await ollama.chat(call.body as unknown as ChatRequest & { stream: false });
    if (typeof response.message !== "object" || response.message === null) {
      throw new Error(`Ollama answered without a message: ${JSON.stringify(response)}`);
    }
    return;
  }
  const completion = await openai.chat.completions.create(
    call.body as unknown as ChatCompletionCreateParamsNonStreaming,
  );
  if (completion.choices[0]?.message === undefined) {
    throw new Error(`OpenAI answered without a choice: ${JSON.stringify(completion)}`);
  }
}

/** The round's calls in their order, up to `concurrency` in flight, as the app's reviewers are. */
async function replayRound(): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < input.calls.length) {
      const call = input.calls[next] as FloorCall;
      next += 1;
      await send(call);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(input.concurrency, input.calls.length) }, worker),
  );
}

for (let warmup = 0; warmup < input.warmups; warmup++) await replayRound();
const cpuMs: number[] = [];
for (let replay = 0; replay < input.replays; replay++) {
  const before = process.cpuUsage();
  await replayRound();
  const used = process.cpuUsage(before);
  cpuMs.push((used.user + used.system) / 1000);
}
fetch.close();
const sorted = [...cpuMs].sort((left, right) => left - right);
const output: FloorOutput = {
  calls: input.calls.length,
  cpuMs,
  medianCpuMs: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
  perCallMeanMs: cpuMs.reduce((sum, value) => sum + value, 0) / cpuMs.length / input.calls.length,
};
process.stdout.write(`${JSON.stringify(output)}\n`);
