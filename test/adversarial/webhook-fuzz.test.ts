import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { Probot } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import { gadflyApp } from "../../src/boot/gadfly-app.js";
import { AppConfig } from "../../src/config/schema.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { RoundRegistry } from "../../src/run/round-registry.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { systemClock } from "../../src/time/clock.js";
import {
  type FakeGitHub,
  issueCommentEvent,
  pullRequestEvent,
  startFakeGitHub,
  type WebhookEvent,
} from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";

/*
 * Real webhook payloads (from @octokit/webhooks-examples, adapted to the fake)
 * mutated in the fields Gadfly reads: every mutation must be logged with its
 * delivery id and start nothing — no crash, no unhandled rejection, no round.
 */

let github: FakeGitHub;
let probot: Probot;
let store: SqliteRunStore;
const logLines: string[] = [];
const rounds: Promise<void>[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  const dir = await mkdtemp(join(tmpdir(), "gadfly-fuzz-"));
  store = await SqliteRunStore.open(join(dir, "gadfly.sqlite"));
  const { privateKey, Octokit } = probotCredentials(github.apiUrl);
  const log = pino(
    { level: "info" },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  );
  probot = new Probot({ appId: 1, privateKey, secret: "s", Octokit, log });
  const config = AppConfig.parse({
    providers: [{ name: "local", type: "ollama", host: "http://127.0.0.1:9" }],
    models: [{ id: "m", provider: "local" }],
  });
  await probot.load(
    gadflyApp({
      config,
      env: {},
      store,
      limiter: createReviewerLimiter(2),
      registry: new RoundRegistry(),
      lenses: await loadLenses(),
      dataDir: dir,
      clock: systemClock,
      boardIntervalMs: 100,
      onRound: (done) => rounds.push(done),
    }),
  );
});

afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await Promise.allSettled(rounds);
  await store?.close();
  await github?.close();
});

type Mutation = [string, (payload: Record<string, unknown>) => void];

function at(payload: Record<string, unknown>, path: string[]): Record<string, unknown> {
  let node: Record<string, unknown> = payload;
  for (const key of path) node = node[key] as Record<string, unknown>;
  return node;
}

function set(payload: Record<string, unknown>, path: string[], key: string, value: unknown): void {
  at(payload, path)[key] = value;
}

const mutations = (paths: string[][]): Mutation[] =>
  paths.flatMap((path): Mutation[] => {
    const parent = path.slice(0, -1);
    const key = path.at(-1) ?? "";
    const name = path.join(".");
    return [
      [`${name} missing`, (payload) => void delete at(payload, parent)[key]],
      [`${name} null`, (payload) => set(payload, parent, key, null)],
      [`${name} wrong type`, (payload) => set(payload, parent, key, [{ nested: true }])],
    ];
  });

describe("mutated webhook payloads start nothing and are logged with their delivery id", () => {
  const pullRequestPaths = [
    ["installation"],
    ["installation", "id"],
    ["repository"],
    ["repository", "owner", "login"],
    ["repository", "name"],
    ["pull_request"],
    ["pull_request", "number"],
    ["pull_request", "head", "sha"],
    ["pull_request", "state"],
  ];
  const commentPaths = [
    ["installation", "id"],
    ["issue", "number"],
    ["comment"],
    ["comment", "id"],
    ["comment", "body"],
    ["comment", "author_association"],
    ["comment", "user", "login"],
  ];
  const summary: { event: string; mutation: string; held: boolean }[] = [];

  afterAll(() => {
    const held = summary.filter((row) => row.held).length;
    console.log(`\nWebhook fuzz: ${summary.length} mutated deliveries, ${held} held`);
  });

  /**
   * Held: nothing started (no check run, no comment), no unhandled rejection, and either
   * a log line names the delivery or Probot refused the delivery before any handler ran
   * (its HTTP answer is then a 5xx that GitHub shows as failed).
   */
  async function deliverMutated(event: WebhookEvent, mutation: Mutation): Promise<boolean> {
    const payload = structuredClone(event.payload);
    mutation[1](payload);
    const id = randomUUID();
    const created = () =>
      github.requests({ method: "POST", path: "/repos/*/*/check-runs" }).length +
      github.requests({ method: "POST", path: "/repos/*/*/issues/*/comments" }).length;
    const before = created();
    let refused = false;
    try {
      await probot.receive({ id, name: event.name, payload } as Parameters<Probot["receive"]>[0]);
    } catch {
      refused = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    const logged = logLines.some((line) => line.includes(id));
    return created() === before && (logged || refused);
  }

  it("pull_request.opened", async () => {
    github.addRepo({ owner: "octo", name: "fuzz", files: { "a.ts": "a\n" } });
    const pr = github.addPullRequest({ files: [{ path: "a.ts", base: "a\n", head: "b\n" }] });
    const event = pullRequestEvent("opened", pr);
    const extra: Mutation[] = [
      ["unknown action", (payload) => set(payload, [], "action", "transmogrified")],
      ["huge title", (payload) => set(payload, ["pull_request"], "title", "x".repeat(5_000_000))],
      [
        "sha not hex",
        (payload) => set(payload, ["pull_request", "head"], "sha", "../../etc/passwd"),
      ],
    ];
    for (const mutation of [...mutations(pullRequestPaths), ...extra]) {
      const held = await deliverMutated(event, mutation);
      summary.push({ event: "pull_request", mutation: mutation[0], held });
      expect(held, mutation[0]).toBe(true);
    }
  });

  it("issue_comment.created", async () => {
    const pr = github.pullRequest({ owner: "octo", repo: "fuzz", number: 1 });
    // A writer, so that mutated comments get as far as the permission check and past it.
    github.addCollaborator("maintainer", "write", { owner: "octo", repo: "fuzz" });
    const comment = github.addComment(pr, { body: "@gadfly review", user: "maintainer" });
    const event = issueCommentEvent({ pullRequest: pr, comment, association: "OWNER" });
    for (const mutation of mutations(commentPaths)) {
      const held = await deliverMutated(event, mutation);
      summary.push({ event: "issue_comment", mutation: mutation[0], held });
      expect(held, mutation[0]).toBe(true);
    }
    expect(unhandled).toEqual([]);
    expect((await store.dueRounds()).length).toBe(0);
  });
});
