import pino from "pino";
import { Probot, Server } from "probot";
import { loadLenses } from "../src/agent/index.js";
import { gadflyApp } from "../src/boot/gadfly-app.js";
import { loadAppConfig } from "../src/config/index.js";
import { createReviewerLimiter, RoundRegistry } from "../src/run/index.js";
import { InMemoryWorkQueue } from "../src/run/queue/index.js";
import { openRunStore } from "../src/run/store/index.js";
import type { Clock } from "../src/time/index.js";
import { OPENAI_KEY, type Stack, WEBHOOK_SECRET } from "../test/e2e/harness.js";
import { probotCredentials } from "../test/fakes/fake-github/probot-credentials.js";
import { freePort } from "../test/helpers/free-port.js";

export interface InProcessApp {
  webhookUrl: string;
  /** Rounds a worker of this app took so far (what `gadfly_rounds_total{state="started"}` counts). */
  roundsStarted(): number;
  /** Resolves once every round started so far has ended. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Gadfly's Probot app (`gadflyApp`, what `npm start` serves) in this process, on its own port,
 * pointed at the stack's fakes and config, with `clock` as its time: the in-memory queue's
 * delays (a push's quiet period) and the rounds' timers run on it. For a benchmark that needs
 * to skip a wait the app process would spend on the wall clock; everything else (webhook
 * verification, the store, the queue, the workers, the rounds) is the app's own.
 */
export async function startInProcessApp(
  stack: Stack,
  clock: Clock,
  extra: { promptStyle?: "full-diff"; everyRoundFull?: boolean } = {},
): Promise<InProcessApp> {
  const env = { GADFLY_CONFIG: stack.configPath, E2E_OPENAI_KEY: OPENAI_KEY };
  const config = await loadAppConfig(env, stack.dir);
  const store = await openRunStore({ databaseUrl: undefined, dataDir: stack.dataDir });
  const queue = new InMemoryWorkQueue({ clock });
  const registry = new RoundRegistry();
  const { privateKey, Octokit } = probotCredentials(stack.github.apiUrl);
  const log = pino({ level: "warn" }, pino.destination(2));
  const port = await freePort();
  const server = new Server({
    Probot: Probot.defaults({ appId: 1, privateKey, secret: WEBHOOK_SECRET, Octokit, log }),
    host: "127.0.0.1",
    port,
    log,
  });
  const rounds: Promise<void>[] = [];
  await server.load(
    gadflyApp({
      config,
      env,
      store,
      limiter: createReviewerLimiter(config.review.concurrency),
      registry,
      lenses: await loadLenses(),
      dataDir: stack.dataDir,
      clock,
      boardIntervalMs: 2_000,
      queue,
      onRound: (done) => rounds.push(done),
      ...extra,
    }),
  );
  await server.start();
  return {
    webhookUrl: `http://127.0.0.1:${port}/api/github/webhooks`,
    roundsStarted: () => rounds.length,
    async settled() {
      for (let seen = -1; seen !== rounds.length; ) {
        seen = rounds.length;
        await Promise.all(rounds);
      }
    },
    async stop() {
      await server.stop();
      await queue.stop(5_000);
      await store.close();
    },
  };
}
