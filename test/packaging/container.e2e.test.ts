import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { chmod, chown, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import {
  OPENAI_KEY,
  reviewerScript,
  type Stack,
  scriptAll,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "../e2e/harness.js";
import { deliver, pullRequestEvent } from "../fakes/fake-github/index.js";
import { freePort } from "../helpers/free-port.js";
import { startTestPostgres, type TestPostgres } from "../helpers/postgres-server.js";
import { type ProcessResult, runProcess } from "../helpers/run-process.js";

/*
 * The image and the compose stack, for real, on a Docker engine (.ci/run starts one on a
 * private socket and names it in GADFLY_TEST_DOCKER_HOST, with local stand-ins for the base
 * images: no registry is reachable here). The image is built from this checkout; it runs in
 * each role against the fakes on the host's loopback (host networking: the only network this
 * engine has that reaches them), answers its health check, stops cleanly on SIGTERM with Node
 * as PID 1 or PID 1's direct child, and runs bubblewrap under the shipped seccomp profile. The
 * compose stack then takes a pull request's delivery and a worker finishes its round.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DOCKER_HOST = process.env.GADFLY_TEST_DOCKER_HOST;
const POSTGRES_IMAGE = process.env.GADFLY_TEST_POSTGRES_IMAGE ?? "postgres:17";
const TAG = "gadfly:container-test";
const BUILD_TIMEOUT_MS = 20 * 60_000;
const NODE_UID = 1000;
// Characters a URL would need escaped: the password never goes into one.
const DATABASE_PASSWORD = "p@ss:w/rd%?&x=y";
const DASHBOARD_TOKEN = "container-dashboard-token-0123456789";
const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
  type: "pkcs1",
  format: "pem",
}) as string;

function docker(args: string[], timeoutMs = 120_000): Promise<ProcessResult> {
  // The classic builder: BuildKit would fetch its frontend from a registry.
  const env = {
    ...(process.env as Record<string, string>),
    DOCKER_HOST: DOCKER_HOST ?? "",
    DOCKER_BUILDKIT: "0",
  };
  return runProcess("docker", args, { cwd: ROOT, env, timeoutMs });
}

async function ok(args: string[], timeoutMs?: number): Promise<string> {
  const run = await docker(args, timeoutMs);
  if (run.code !== 0) throw new Error(`docker ${args.join(" ")}: ${run.stderr}`);
  return run.stdout.trim();
}

const started: string[] = [];

/** A container of the image on the host's network, named for cleanup. */
async function run(name: string, options: string[], command: string[] = []): Promise<string> {
  started.push(name);
  return ok(["run", "-d", "--name", name, "--network", "host", ...options, TAG, ...command]);
}

async function health(name: string): Promise<string> {
  return ok(["inspect", "--format", "{{.State.Health.Status}}", name]);
}

/** `--env` flags the image runs with against the fakes, for a role. */
function appEnv(stack: Stack, port: number, extra: Record<string, string>): string[] {
  const env: Record<string, string> = {
    APP_ID: "1",
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET,
    PORT: String(port),
    HOST: "127.0.0.1",
    GHE_HOST: new URL(stack.github.url).host,
    GHE_PROTOCOL: "http",
    GADFLY_CONFIG: "/config/gadfly.config.yml",
    E2E_OPENAI_KEY: OPENAI_KEY,
    LOG_LEVEL: "info",
    ...extra,
  };
  return Object.entries(env).flatMap(([key, value]) => ["--env", `${key}=${value}`]);
}

/** Health checked every second, as the image's HEALTHCHECK says, not every 30 s. */
const FAST_HEALTH = ["--health-interval", "1s", "--health-start-period", "30s"];

describe.skipIf(DOCKER_HOST === undefined)("the image and the compose stack", () => {
  let stack: Stack;
  let dir: string;
  let buildSeconds: number;

  beforeAll(async () => {
    stack = await startStack();
    scriptAll(
      stack,
      reviewerScript(() => [], "src/app.js"),
    );
    dir = await mkdtemp(join(tmpdir(), "gadfly-container-"));
    await mkdir(join(dir, "config"));
    await copyFile(stack.configPath, join(dir, "config", "gadfly.config.yml"));
    const started = Date.now();
    await ok(["build", "--network", "host", "--tag", TAG, "."], BUILD_TIMEOUT_MS);
    buildSeconds = Math.round((Date.now() - started) / 1000);
    console.log(`container test: image built in ${buildSeconds} s`);
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    for (const name of started) await docker(["rm", "-f", "-v", name]);
    await stack?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  /** A data directory the image's `node` user owns. */
  async function dataDir(name: string): Promise<string> {
    const path = join(dir, name);
    await mkdir(path);
    if (process.getuid?.() === 0) await chown(path, NODE_UID, NODE_UID);
    else await chmod(path, 0o777);
    return path;
  }

  it("is one Node LTS on every stage, with nothing compiled and nothing left of a build", async () => {
    const version = await ok(["run", "--rm", "--network", "host", TAG, "node", "--version"]);
    expect(Number(/^v(\d+)\./.exec(version)?.[1]) % 2).toBe(0);
    const listing = await ok([
      "run",
      "--rm",
      "--network",
      "host",
      TAG,
      "sh",
      "-c",
      "ls node_modules/better-sqlite3 node_modules/better-sqlite3/prebuilds; command -v gcc make python3 npm-cache || true; ls /var/lib/apt/lists | wc -l",
    ]);
    expect(listing).not.toMatch(/\bdeps\b|\bsrc\b|binding\.gyp|darwin|win32/);
    expect(listing).toContain(`linux-${process.arch}.node`);
    expect(listing.split("\n").at(-1)).toBe("0");
  }, 60_000);

  it("setup mode: healthy, serves the page, and writes the App's credentials into the data volume", async () => {
    const port = await freePort();
    const data = await dataDir("setup-data");
    await run("gadfly-test-setup", [
      ...FAST_HEALTH,
      "--volume",
      `${data}:/data`,
      "--env",
      `PORT=${port}`,
      "--env",
      `GHE_HOST=${new URL(stack.github.url).host}`,
      "--env",
      "GHE_PROTOCOL=http",
    ]);
    await waitFor(async () => (await health("gadfly-test-setup")) === "healthy", 60_000);
    const page = await fetch(`http://127.0.0.1:${port}/probot`);
    expect(await page.text()).toContain("Gadfly");
    const back = await fetch(`http://127.0.0.1:${port}/probot/setup?code=container`, {
      redirect: "manual",
    });
    expect(back.status).toBe(302);
    const written = await readFile(join(data, ".env"), "utf8");
    expect(written).toMatch(/^APP_ID=1$/m);
    expect(written).toMatch(/^WEBHOOK_SECRET=\S+$/m);
  }, 90_000);

  it("in the default role: healthy, Node as PID 1, and on SIGTERM the graceful shutdown and exit 0", async () => {
    const port = await freePort();
    const data = await dataDir("all-data");
    await run("gadfly-test-all", [
      ...FAST_HEALTH,
      "--volume",
      `${data}:/data`,
      "--volume",
      `${join(dir, "config")}:/config:ro`,
      ...appEnv(stack, port, {}),
    ]);
    await waitFor(async () => (await health("gadfly-test-all")) === "healthy", 60_000);
    const pid1 = await ok(["exec", "gadfly-test-all", "cat", "/proc/1/cmdline"]);
    expect(pid1.split("\0")[0]).toBe("node");
    const stopped = Date.now();
    await ok(["stop", "--time", "30", "gadfly-test-all"], 60_000);
    const seconds = (Date.now() - stopped) / 1000;
    const logs = await docker(["logs", "gadfly-test-all"]);
    expect(logs.stdout + logs.stderr).toContain(
      "gadfly: SIGTERM: shutting down; rounds in flight resume on the next start",
    );
    expect(await ok(["inspect", "--format", "{{.State.ExitCode}}", "gadfly-test-all"])).toBe("0");
    expect(seconds).toBeLessThan(12);
  }, 120_000);

  describe("with PostgreSQL", () => {
    let postgres: TestPostgres;

    beforeAll(async () => {
      postgres = await startTestPostgres();
    }, 60_000);

    afterAll(async () => {
      await postgres?.stop();
    });

    it("as a worker with --init: healthy, Node PID 1's direct child, a clean stop", async () => {
      const port = await freePort();
      await run("gadfly-test-worker", [
        "--init",
        ...FAST_HEALTH,
        "--volume",
        `${join(dir, "config")}:/config:ro`,
        ...appEnv(stack, port, {
          GADFLY_ROLE: "worker",
          GADFLY_DATABASE_URL: await postgres.createDatabase(),
        }),
      ]);
      await waitFor(async () => (await health("gadfly-test-worker")) === "healthy", 60_000);
      const processes = await ok([
        "exec",
        "gadfly-test-worker",
        "sh",
        "-c",
        "for d in /proc/[0-9]*; do echo \"$(basename $d) $(awk '/^PPid/ {print $2}' $d/status) $(tr '\\0' ' ' < $d/cmdline)\"; done",
      ]);
      const table = processes.split("\n").map((line) => line.split(" "));
      // Docker's init is PID 1, and Node (no npm, no shell) its direct child.
      expect(table.find(([pid]) => pid === "1")?.[2]).toMatch(/docker-init$/);
      const node = table.find((fields) => fields[2] === "node" && fields.includes("dist/main.js"));
      expect(node?.[1]).toBe("1");
      await ok(["stop", "--time", "30", "gadfly-test-worker"], 60_000);
      const logs = await docker(["logs", "gadfly-test-worker"]);
      expect(logs.stdout + logs.stderr).toContain(
        "gadfly: SIGTERM: shutting down; rounds in flight resume on another worker",
      );
      expect(await ok(["inspect", "--format", "{{.State.ExitCode}}", "gadfly-test-worker"])).toBe(
        "0",
      );
    }, 120_000);

    it("as a receiver with sandbox.isolation: bwrap and no sandbox options: it starts, since it runs no agent", async () => {
      const port = await freePort();
      const config = join(dir, "bwrap-config");
      await mkdir(config);
      await writeFile(
        join(config, "gadfly.config.yml"),
        `${await readFile(stack.configPath, "utf8")}sandbox:\n  isolation: bwrap\n`,
      );
      await run("gadfly-test-web", [
        ...FAST_HEALTH,
        "--volume",
        `${config}:/config:ro`,
        ...appEnv(stack, port, {
          GADFLY_ROLE: "web",
          GADFLY_DATABASE_URL: await postgres.createDatabase(),
        }),
      ]);
      await waitFor(async () => (await health("gadfly-test-web")) === "healthy", 60_000);
    }, 90_000);
  });

  describe("agent CLIs' sandbox", () => {
    const probe =
      "bwrap --unshare-user --unshare-pid --die-with-parent --ro-bind / / --proc /proc --dev /dev true";

    async function sandboxed(options: string[], command: string): Promise<ProcessResult> {
      return docker(["run", "--rm", "--network", "host", ...options, TAG, "sh", "-c", command]);
    }

    it("works under the shipped seccomp profile, which is a filter: Docker's default refuses bubblewrap", async () => {
      const profile = [
        "--security-opt",
        `seccomp=${join(ROOT, "docker/seccomp-bwrap.json")}`,
        "--security-opt",
        "systempaths=unconfined",
      ];
      expect((await sandboxed(profile, probe)).code).toBe(0);
      expect((await sandboxed(["--security-opt", "systempaths=unconfined"], probe)).code).not.toBe(
        0,
      );
      // A filter is in force: mode 2 in the kernel's status, and a refused call stays refused.
      expect((await sandboxed(profile, "grep '^Seccomp:' /proc/self/status")).stdout).toMatch(
        /Seccomp:\s+2/,
      );
      const personality = await sandboxed(profile, "setarch x86_64 -R true");
      expect(personality.code).not.toBe(0);
      expect(personality.stderr).toContain("Operation not permitted");
    }, 60_000);

    it("and Gadfly's own start-up probe finds bubblewrap working there", async () => {
      const port = await freePort();
      const config = join(dir, "agent-config");
      await mkdir(config);
      const base = await readFile(stack.configPath, "utf8");
      await writeFile(
        join(config, "gadfly.config.yml"),
        `${base.replace(
          "models:\n",
          '  - name: claude-code\n    type: command\n    command: ["claude", "-p"]\nmodels:\n  - { id: "claude-code/opus", provider: claude-code, model: opus }\n',
        )}sandbox:\n  isolation: bwrap\n`,
      );
      await run("gadfly-test-agents", [
        "--security-opt",
        `seccomp=${join(ROOT, "docker/seccomp-bwrap.json")}`,
        "--security-opt",
        "systempaths=unconfined",
        "--volume",
        `${await dataDir("agents-data")}:/data`,
        "--volume",
        `${config}:/config:ro`,
        ...appEnv(stack, port, {}),
      ]);
      await waitFor(async () => {
        const logs = await docker(["logs", "gadfly-test-agents"]);
        return (logs.stdout + logs.stderr).includes("agent CLIs isolated with bubblewrap");
      }, 60_000);
    }, 90_000);
  });

  it("compose: web, worker and PostgreSQL come up healthy, and a worker finishes a pull request's round", async () => {
    const project = join(dir, "compose");
    await mkdir(join(project, "secrets"), { recursive: true });
    await mkdir(join(project, "docker"));
    await copyFile(
      join(ROOT, "docker/seccomp-bwrap.json"),
      join(project, "docker/seccomp-bwrap.json"),
    );
    await copyFile(stack.configPath, join(project, "gadfly.config.yml"));
    await writeFile(join(project, "secrets/github-app.pem"), privateKey, { mode: 0o644 });
    await writeFile(join(project, "secrets/providers.env"), `E2E_OPENAI_KEY=${OPENAI_KEY}\n`);
    await writeFile(
      join(project, ".env"),
      [
        "APP_ID=1",
        `WEBHOOK_SECRET=${WEBHOOK_SECRET}`,
        `POSTGRES_PASSWORD=${DATABASE_PASSWORD}`,
        `GADFLY_DASHBOARD_TOKEN=${DASHBOARD_TOKEN}`,
        `POSTGRES_IMAGE=${POSTGRES_IMAGE}`,
        "",
      ].join("\n"),
    );
    // The repository's compose file, adapted to this engine only where it must be: host
    // networking (the fakes are on loopback), so each service its own port, and the database
    // on the host's loopback; health checked every second. `systempaths=unconfined` is refused
    // by docker-compose 1.x (Compose v2 takes it): left out only there.
    const composeVersion = execFileSync("docker-compose", ["version", "--short"], {
      encoding: "utf8",
    }).trim();
    const compose = parse(await readFile(join(ROOT, "docker-compose.yml"), "utf8"), {
      merge: true,
    }) as { services: Record<string, Record<string, unknown>> };
    const [webPort, workerPort, databasePort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const services = compose.services;
    for (const [name, port] of [
      ["web", webPort],
      ["worker", workerPort],
    ] as const) {
      const service = services[name] ?? {};
      service.image = TAG;
      delete service.build;
      delete service.ports;
      service.network_mode = "host";
      // The image's own check, every second.
      service.healthcheck = {
        test: ["CMD", "node", "dist/healthcheck.js"],
        interval: "1s",
        timeout: "10s",
        start_period: "30s",
      };
      service.environment = {
        ...(service.environment as Record<string, string>),
        PORT: String(port),
        HOST: "127.0.0.1",
        GHE_HOST: new URL(stack.github.url).host,
        GHE_PROTOCOL: "http",
        GADFLY_DATABASE_URL: `postgres://gadfly@127.0.0.1:${databasePort}/gadfly`,
        GADFLY_BOARD_INTERVAL_MS: "100",
      };
    }
    if (composeVersion.startsWith("1.")) {
      const worker = services.worker ?? {};
      worker.security_opt = (worker.security_opt as string[]).filter(
        (option) => option !== "systempaths=unconfined",
      );
    }
    const database = services.postgres ?? {};
    database.network_mode = "host";
    database.environment = {
      ...(database.environment as Record<string, string>),
      PGPORT: String(databasePort),
    };
    database.healthcheck = { ...(database.healthcheck as object), interval: "1s", retries: 90 };
    await writeFile(join(project, "docker-compose.yml"), stringify(compose));

    const composeEnv = {
      ...(process.env as Record<string, string>),
      DOCKER_HOST: DOCKER_HOST ?? "",
      COMPOSE_PROJECT_NAME: "gadfly-container-test",
    };
    const composeRun = (args: string[], timeoutMs = 180_000) =>
      runProcess("docker-compose", args, { cwd: project, env: composeEnv, timeoutMs });
    try {
      const up = await composeRun(["up", "-d", "--no-build"]);
      expect(up.code, up.stderr).toBe(0);
      const ids = Object.fromEntries(
        await Promise.all(
          ["web", "worker", "postgres"].map(async (name) => [
            name,
            (await composeRun(["ps", "-q", name])).stdout.trim(),
          ]),
        ),
      ) as Record<string, string>;
      const logsOf = async (id: string | undefined) => {
        const logs = await docker(["logs", "--tail", "5", id ?? ""]);
        const state = await docker(["inspect", "--format", "{{json .State.Health}}", id ?? ""]);
        return `${state.stdout}\n${logs.stdout}${logs.stderr}`;
      };
      await waitFor(async () => {
        const states = await Promise.all([ids.web, ids.worker].map((id) => health(id ?? "")));
        return states.every((state) => state === "healthy");
      }, 120_000).catch(async (error: unknown) => {
        throw new Error(
          `${String(error)}\nweb:\n${await logsOf(ids.web)}\nworker:\n${await logsOf(ids.worker)}`,
        );
      });
      // /metrics on the public port wants the dashboard token.
      expect((await fetch(`http://127.0.0.1:${webPort}/metrics`)).status).toBe(401);

      const { github } = stack;
      github.addRepo({
        owner: "octo-org",
        name: "compose",
        files: { "src/app.js": "export const a = 1;\n" },
      });
      const pr = github.addPullRequest({
        owner: "octo-org",
        repo: "compose",
        title: "Change a",
        files: [
          { path: "src/app.js", base: "export const a = 1;\n", head: "export const a = 2;\n" },
        ],
      });
      const delivered = await deliver(
        `http://127.0.0.1:${webPort}/api/github/webhooks`,
        pullRequestEvent("opened", pr),
        WEBHOOK_SECRET,
      );
      expect(delivered.status).toBeLessThan(300);
      await waitFor(
        () => github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
        90_000,
      );
      const workerLogs = await docker(["logs", ids.worker ?? ""]);
      expect(workerLogs.stdout + workerLogs.stderr).toContain("worker started");
      const webLogs = await docker(["logs", ids.web ?? ""]);
      expect(webLogs.stdout + webLogs.stderr).not.toContain(DATABASE_PASSWORD);

      const stop = await composeRun(["stop"]);
      expect(stop.code, stop.stderr).toBe(0);
      for (const id of [ids.web, ids.worker]) {
        expect(await ok(["inspect", "--format", "{{.State.ExitCode}}", id ?? ""])).toBe("0");
      }
    } finally {
      await composeRun(["down", "-v", "--remove-orphans"]);
    }
  }, 300_000);
});
