import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { OPENAI_KEY, type Stack, WEBHOOK_SECRET } from "../test/e2e/harness.js";
import type { RecordedRequest } from "../test/fakes/fake-github/request-log.js";
import { runFloorChild } from "./run-floor-child.js";

/** One recorded GitHub request as the child sends it again. */
export interface ReplayRequest {
  /** `METHOD /path` with ids and SHAs generalised: what the per-route CPU is grouped by. */
  route: string;
  method: string;
  /** Without `/api/v3` and the query, as the fake records it. */
  path: string;
  query: Record<string, string>;
  body: unknown;
  /** The Accept header as sent (a diff's media type, say), if any. */
  accept: string | undefined;
  /** Sent by the installation's client, or by the app's own (JWT) one. */
  as: "installation" | "app";
  /** The tarball: its answer is a redirect the client follows, and its body is read to the end. */
  tarball: boolean;
  /**
   * What the fake answered in the round: the replay must get the same. Mostly a success; a
   * 404 where the app looks for a file the repository may not have (`.github/gadfly.yml`).
   */
  status: number;
}

/** What the child is given (as a JSON file). */
export interface GitHubFloorsInput {
  /** The fake GitHub's host (GHE_HOST), as the bench app is given it. */
  gheHost: string;
  installationId: number;
  /** Secrets the app's redaction holds besides the private key the child makes. */
  webhookSecret: string;
  apiKey: string;
  warmups: number;
  replays: number;
  requests: ReplayRequest[];
  /** The tarball's bytes as the fake serves them, for the extraction floor. */
  tarballFile: string;
}

/** The CPU of one route's requests in a timed replay, mean over the replays. */
export interface RouteCpu {
  route: string;
  count: number;
  meanMs: number;
}

/** What the child prints: CPU (user + system) per replay of the round, and per extraction, ms. */
export interface GitHubFloorsOutput {
  requests: number;
  cpuMs: number[];
  medianCpuMs: number;
  perRequestMeanMs: number;
  /** Routes by CPU, most first. */
  byRoute: RouteCpu[];
  /** Requests of a replay answered with an error, as in the round (`GET /path 404`). */
  errorAnswers: string[];
  extraction: { cpuMs: number[]; medianCpuMs: number; files: number; bytes: number };
}

export interface GitHubFloorsOptions {
  /** The fakes the round's requests went to, still running: the replay goes to them too. */
  stack: Stack;
  /** The judged app's GitHub requests of one round, in arrival order. */
  round: readonly RecordedRequest[];
  /** The built app's `dist/main.js`: the child uses its Octokit, fetch and extraction. */
  appEntry: string;
  /** The judged app's node flags (`npm start`'s). */
  nodeArgs: readonly string[];
}

const CHILD_SOURCE = fileURLToPath(new URL("./github-floors-child.ts", import.meta.url));
const TARBALL = /^\/repos\/[^/]+\/[^/]+\/tarball\//;
const CODELOAD = "/_codeload/";
const TOKEN = /^\/app\/installations\/\d+\/access_tokens$/;

/**
 * The CPU that a round's GitHub side costs on its own, in two floors under the app's CPU per
 * round: the round's GitHub requests sent again through the app's own Octokit class
 * (`githubOctokit`: Probot's Octokit with the app's plugins over the app's node:http fetch,
 * authenticated as the installation by Probot as the app is), and the extraction of the head's
 * tarball (`extractTarball`). Both run in a separate process with `npm start`'s node flags and
 * the built app's JavaScript, after the rounds, against the same fakes: 2 warm-ups, then the
 * median CPU of 7 timed with `process.cpuUsage()`. Throws unless every replayed request reached
 * the fake once per replay and was answered as in the round: a success for a success, and the
 * same error for the few the app expects (a 404 for a config file the repository lacks).
 */
export async function githubFloors(options: GitHubFloorsOptions): Promise<GitHubFloorsOutput> {
  const requests = replayable(options.round);
  const tarball = requests.find((request) => request.tarball);
  if (tarball === undefined) throw new Error("the round downloaded no tarball");
  const { github } = options.stack;
  const directory = await mkdtemp(join(tmpdir(), "gadfly-bench-github-floor-"));
  try {
    // The bytes the app extracted: the tarball's redirect target, fetched once from the fake.
    const codeload = options.round.find((request) => request.path.startsWith(CODELOAD));
    if (codeload === undefined) throw new Error("the round followed no tarball redirect");
    const response = await fetch(`${github.url}${codeload.path}`);
    if (!response.ok) throw new Error(`the tarball: ${response.status}`);
    const tarballFile = join(directory, "head.tar.gz");
    await writeFile(tarballFile, Buffer.from(await response.arrayBuffer()));
    const input: GitHubFloorsInput = {
      gheHost: new URL(github.url).host,
      installationId: installationOf(options.round),
      webhookSecret: WEBHOOK_SECRET,
      apiKey: OPENAI_KEY,
      warmups: 2,
      replays: 7,
      requests,
      tarballFile,
    };
    const inputFile = join(directory, "input.json");
    await writeFile(inputFile, JSON.stringify(input));
    const before = github.requests().length;
    const output = (await runFloorChild({
      source: CHILD_SOURCE,
      directory,
      nodeArgs: options.nodeArgs,
      args: [dirname(options.appEntry), inputFile],
      what: "the GitHub floor",
    })) as GitHubFloorsOutput;
    // Every replay reached the fake once per request (the tarball's redirect target included)
    // and was answered as in the round; installation tokens are the child's own, asked apart.
    // Any success for a success: a reaction already there is answered 200, not 201.
    const key = (request: RecordedRequest) =>
      `${request.method} ${request.path} ${request.status < 400 ? "ok" : request.status}`;
    const sent = tally(
      github
        .requests()
        .slice(before)
        .filter((request) => !TOKEN.test(request.path))
        .map(key),
    );
    const times = input.warmups + input.replays;
    const expected = tally(
      options.round.filter((request) => !TOKEN.test(request.path)).map(key),
      times,
    );
    const differ = [...new Set([...sent.keys(), ...expected.keys()])].filter(
      (request) => sent.get(request) !== expected.get(request),
    );
    if (differ.length > 0 || output.cpuMs.length !== input.replays) {
      throw new Error(
        `the GitHub floor's replay is not the round's (expected × ${times}, sent): ${differ
          .slice(0, 8)
          .map((request) => `${request} ${expected.get(request) ?? 0} ${sent.get(request) ?? 0}`)
          .join("; ")}`,
      );
    }
    return output;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * The round's requests as the app's clients sent them: the tarball's redirect target is left
 * out (the replayed tarball request follows its redirect, as the app's does), and so is any
 * installation token request (the child's client asks for its own, before the timing).
 * Sent one after another in the order they arrived: the round's few concurrent ones (board
 * edits beside the reviewers' calls) cost the client the same CPU either way.
 */
function replayable(round: readonly RecordedRequest[]): ReplayRequest[] {
  const isTarball = (request: RecordedRequest) =>
    request.method === "GET" && TARBALL.test(request.path);
  const followed = round.filter((request) => request.path.startsWith(CODELOAD)).length;
  if (followed !== round.filter(isTarball).length) {
    throw new Error(`the round has ${followed} tarball downloads, not one per tarball request`);
  }
  return round
    .filter((request) => !request.path.startsWith(CODELOAD) && !TOKEN.test(request.path))
    .map((request) => {
      if (request.auth !== "installation" && request.auth !== "jwt") {
        throw new Error(
          `a ${request.auth} request in the round: ${request.method} ${request.path}`,
        );
      }
      return {
        route: `${request.method} ${request.path
          .replace(/\/[0-9a-f]{40}(?=\/|$)/g, "/{sha}")
          .replace(/\/\d+(?=\/|$)/g, "/{id}")}`,
        method: request.method,
        path: request.path,
        query: request.query,
        body: request.body,
        accept: request.headers.accept,
        as: request.auth === "jwt" ? "app" : "installation",
        tarball: isTarball(request),
        status: request.status,
      };
    });
}

function installationOf(round: readonly RecordedRequest[]): number {
  const ids = new Set(round.flatMap((request) => request.installationId ?? []));
  const [id] = ids;
  if (ids.size !== 1 || id === undefined) {
    throw new Error(`the round's requests act for ${ids.size} installations, not one`);
  }
  return id;
}

/** How many times each key occurs, times `times`. */
function tally(keys: readonly string[], times = 1): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + times);
  return counts;
}
