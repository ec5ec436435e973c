/**
 * The child of bench/github-floors.ts: sends one round's recorded GitHub requests again through
 * the app's own Octokit class, authenticated as the installation the way the app is, then
 * extracts the round's tarball as the snapshot does, and prints the CPU this process spent on
 * each. TypeScript so `tsc` checks it against src/'s types; the parent builds it with esbuild, so
 * the measured process runs plain JavaScript with `npm start`'s node flags and the built app.
 * argv: the built app's `dist` directory, then the input file (GitHubFloorsInput as JSON).
 * stdout: one line of JSON, GitHubFloorsOutput.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Bottleneck from "bottleneck";
import { createProbot } from "probot";
import type { GitHubFloorsInput, GitHubFloorsOutput, ReplayRequest } from "./github-floors.js";

const [distDirectory, inputFile] = process.argv.slice(2);
if (distDirectory === undefined || inputFile === undefined) {
  throw new Error("usage: github-floors-child <dist> <input.json>");
}
/** A module of the build, by path: this file is built on its own, apart from src/. */
const built = async <Module>(path: string): Promise<Module> =>
  (await import(pathToFileURL(join(distDirectory, path)).href)) as Module;
const { githubOctokit } =
  await built<typeof import("../src/boot/github-octokit.js")>("boot/github-octokit.js");
const { createRedactingLog } = await built<typeof import("../src/boot/create-redacting-log.js")>(
  "boot/create-redacting-log.js",
);
const { extractTarball, WriteBudget } =
  await built<typeof import("../src/github/index.js")>("github/index.js");
const { createNodeFetch } = await built<typeof import("../src/http/index.js")>("http/index.js");
const { collectSecrets } = await built<typeof import("../src/run/index.js")>("run/index.js");
const { InMemoryTokenBuckets } =
  await built<typeof import("../src/run/queue/index.js")>("run/queue/index.js");
const { createGadflyMetrics } =
  await built<typeof import("../src/server/index.js")>("server/index.js");
const { systemClock } = await built<typeof import("../src/time/index.js")>("time/index.js");
const input = JSON.parse(await readFile(inputFile, "utf8")) as GitHubFloorsInput;

// The app as start-bench-app.ts starts it: app 1 with a 2048-bit key (the fake checks a JWT's
// issuer, not its signature), the fake as a GitHub Enterprise host, Probot's info-level log.
const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
  type: "pkcs1",
  format: "pem",
}) as string;
const env = {
  APP_ID: "1",
  PRIVATE_KEY: privateKey,
  WEBHOOK_SECRET: input.webhookSecret,
  GHE_HOST: input.gheHost,
  GHE_PROTOCOL: "http",
  LOG_LEVEL: "info" as const,
  LOG_FORMAT: "json" as const,
};
// As many secrets as the app redacts: its key's forms, the webhook secret, the provider key.
const secrets = [...collectSecrets({ env, providers: [], privateKey }), input.apiKey];
const fetch = createNodeFetch();
// The app's write budget plugin is in, so each write pays its token take (two in-memory
// buckets, as the app's default in-process budget), with a shape so large it never waits:
// this floor is the client's CPU, not the budget's pacing.
const unlimited = { shape: { capacity: 1_000_000, perMinute: 1_000_000 }, reserve: 1 };
const budget = new WriteBudget({
  buckets: new InMemoryTokenBuckets(),
  minute: unlimited,
  hour: unlimited,
  maxWaitMs: 1_000,
  clock: systemClock,
});
const AppOctokit = githubOctokit(createGadflyMetrics(), secrets, budget, fetch);
// Probot's throttling stays on (its Bottleneck scheduling is part of every request's CPU), but
// its write and notification groups here space nothing out: the app's wait 1 s between writes
// and 3 s between comments and reviews, which is idle time, not CPU, and would make 9 replays
// of a round take minutes.
const unpaced = (id: string) => new Bottleneck.Group({ id, maxConcurrent: 1, minTime: 0 });
const throttleGroups = { write: unpaced("floor-write"), notifications: unpaced("floor-notify") };
const Octokit = AppOctokit.defaults((options: Record<string, unknown>) => ({
  ...options,
  throttle: { ...(options.throttle as object | undefined), ...throttleGroups },
}));
const log = await createRedactingLog({ env, secrets, destination: process.stderr });
const probot = createProbot({ env, overrides: { Octokit, log } });
await probot.ready();
const clients = {
  installation: await probot.auth(input.installationId),
  app: await probot.auth(),
};

/** Sends one recorded request as recorded; throws unless GitHub answers as it did in the round. */
async function send(request: ReplayRequest): Promise<void> {
  try {
    await sendOnce(request);
  } catch (error) {
    // Octokit throws for 4xx: one the round got too (a file the repository lacks) is its answer.
    const status = (error as { status?: unknown }).status;
    if (status !== request.status) throw error;
    return;
  }
  if (request.status >= 400) {
    throw new Error(`${request.method} ${request.path}: succeeded, not ${request.status}`);
  }
}

async function sendOnce(request: ReplayRequest): Promise<void> {
  const reads = request.method === "GET" || request.method === "HEAD";
  const query = new URLSearchParams(request.query).toString();
  const body =
    request.body === undefined
      ? {}
      : typeof request.body === "object" && request.body !== null && !Array.isArray(request.body)
        ? (request.body as Record<string, unknown>)
        : { data: request.body };
  const response = await clients[request.as].request(
    // A write's query (rare) stays in its URL: its parameters are its body.
    `${request.method} ${request.path}${!reads && query !== "" ? `?${query}` : ""}`,
    {
      ...(reads ? request.query : {}),
      ...body,
      ...(request.accept === undefined ? {} : { headers: { accept: request.accept } }),
      // The tarball as take-snapshot.ts asks for it: a stream, read here to its end.
      ...(request.tarball ? { request: { parseSuccessResponseBody: false } } : {}),
    },
  );
  // Any success for a success (a reaction already there is answered 200, not 201; the
  // tarball's redirect is followed to its target's 200).
  if (response.status >= 400 || request.status >= 400) {
    throw new Error(`${request.method} ${request.path}: ${response.status}, not ${request.status}`);
  }
  if (request.tarball) {
    const reader = (response.data as unknown as ReadableStream<Uint8Array>).getReader();
    while (!(await reader.read()).done) {
      // Read to the end, as the extraction reads it.
    }
  }
}

const routeCpu = new Map<string, { count: number; totalMs: number }>();
const milliseconds = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;

/** The round's requests, one after another; each one's CPU added to its route when `timed`. */
async function replayRound(timed: boolean): Promise<void> {
  for (const request of input.requests) {
    const before = process.cpuUsage();
    await send(request);
    if (timed) {
      const route = routeCpu.get(request.route) ?? { count: 0, totalMs: 0 };
      route.count += 1;
      route.totalMs += milliseconds(process.cpuUsage(before));
      routeCpu.set(request.route, route);
    }
  }
}

/**
 * A fresh directory for each extraction, removed after it (outside the timing). The bytes go
 * in as one Buffer where the app streams the response: node-tar reads both 16 KiB at a time.
 */
async function extractOnce(tarball: Buffer): Promise<{ cpuMs: number; files: number }> {
  const directory = await mkdtemp(join(tmpdir(), "gadfly-bench-extract-"));
  try {
    const before = process.cpuUsage();
    const result = await extractTarball(tarball, join(directory, "workspace"));
    return { cpuMs: milliseconds(process.cpuUsage(before)), files: result.files };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

const median = (values: readonly number[]) =>
  [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? Number.NaN;

for (let warmup = 0; warmup < input.warmups; warmup++) await replayRound(false);
const cpuMs: number[] = [];
for (let replay = 0; replay < input.replays; replay++) {
  const before = process.cpuUsage();
  await replayRound(true);
  cpuMs.push(milliseconds(process.cpuUsage(before)));
}
fetch.close();

const tarball = await readFile(input.tarballFile);
const extractionCpuMs: number[] = [];
let files = 0;
for (let run = 0; run < input.warmups + input.replays; run++) {
  const extracted = await extractOnce(tarball);
  files = extracted.files;
  if (run >= input.warmups) extractionCpuMs.push(extracted.cpuMs);
}

const output: GitHubFloorsOutput = {
  requests: input.requests.length,
  cpuMs,
  medianCpuMs: median(cpuMs),
  perRequestMeanMs:
    cpuMs.reduce((sum, value) => sum + value, 0) / cpuMs.length / input.requests.length,
  byRoute: [...routeCpu]
    .map(([route, { count, totalMs }]) => ({
      route,
      count: count / input.replays,
      meanMs: totalMs / input.replays,
    }))
    .sort((left, right) => right.meanMs - left.meanMs),
  errorAnswers: input.requests
    .filter((request) => request.status >= 400)
    .map((request) => `${request.method} ${request.path} ${request.status}`),
  extraction: {
    cpuMs: extractionCpuMs,
    medianCpuMs: median(extractionCpuMs),
    files,
    bytes: tarball.length,
  },
};
// Exits once written: Probot's and Bottleneck's timers would keep the process up.
process.stdout.write(`${JSON.stringify(output)}\n`, () => process.exit(0));
