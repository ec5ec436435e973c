import { generateKeyPairSync } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDoctorCommand } from "../../src/boot/index.js";
import { type DoctorInputs, formatDoctorTable, runDoctor } from "../../src/doctor/index.js";
import { openRunStore } from "../../src/run/store/index.js";
import { startFakeAnthropicServer } from "../fakes/fake-anthropic-server.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import { startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import type { FakeModelServer } from "../fakes/model-fake-server.js";
import { freePort } from "../helpers/free-port.js";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../helpers/postgres-server.js";

const OPENAI_KEY = "sk-doctor-secret-0123456789abcdef";
const PRIVATE_KEY = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
  type: "pkcs1",
  format: "pem",
}) as string;

let github: FakeGitHub;
let emptyGitHub: FakeGitHub;
let openai: FakeModelServer;
let ollama: FakeModelServer;
let silent: Server;
let silentUrl: string;
let dir: string;

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 7, appSlug: "gadfly-doc" });
  github.addRepo({ owner: "octo-org", name: "service", ownerType: "Organization" });
  emptyGitHub = await startFakeGitHub({ appId: 7, appSlug: "gadfly-doc" });
  openai = await startFakeOpenAIServer({ apiKey: OPENAI_KEY });
  openai.script("gpt-a", [{ text: "unused" }]);
  ollama = await startFakeOllamaServer();
  ollama.script("llama3.2:latest", [{ text: "unused" }]);
  // Accepts connections and never answers: a provider that hangs.
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), "gadfly-doctor-"));
});

afterAll(async () => {
  silent?.closeAllConnections();
  await Promise.allSettled([
    github?.close(),
    emptyGitHub?.close(),
    openai?.close(),
    ollama?.close(),
    new Promise((resolve) => silent?.close(resolve)),
  ]);
});

let configCount = 0;
async function config(text: string): Promise<string> {
  configCount += 1;
  const path = join(dir, `config-${configCount}.yml`);
  await writeFile(path, text);
  return path;
}

function goodConfig(overrides: { openaiURL?: string; model?: string } = {}): string {
  return [
    "providers:",
    "  - name: openai",
    "    type: openai",
    `    baseURL: ${overrides.openaiURL ?? `${openai.url}/v1`}`,
    "    apiKeyEnv: DOCTOR_OPENAI_KEY",
    "  - name: local",
    "    type: ollama",
    `    host: ${ollama.url}`,
    "models:",
    `  - { id: "${overrides.model ?? "gpt-a"}", provider: openai }`,
    '  - { id: "llama", provider: local, model: "llama3.2" }',
    "",
  ].join("\n");
}

function env(fake: FakeGitHub = github): Record<string, string> {
  return {
    APP_ID: "7",
    WEBHOOK_SECRET: "a-long-webhook-secret",
    GHE_HOST: new URL(fake.url).host,
    GHE_PROTOCOL: "http",
    DOCTOR_OPENAI_KEY: OPENAI_KEY,
    GADFLY_DATA_DIR: join(dir, "data"),
  };
}

async function doctor(overrides: Partial<DoctorInputs> & { configText?: string } = {}) {
  const { configText, ...rest } = overrides;
  return runDoctor({
    env: env(),
    cwd: dir,
    configPath: await config(configText ?? goodConfig()),
    privateKey: PRIVATE_KEY,
    receivesWebhooks: true,
    timeoutMs: 2_000,
    ...rest,
  });
}

function row(report: Awaited<ReturnType<typeof runDoctor>>, id: string) {
  const found = report.checks.find((check) => check.id === id);
  if (found === undefined) throw new Error(`no row ${id}: ${report.checks.map((c) => c.id)}`);
  return found;
}

describe("gadfly doctor's checks", () => {
  it("passes every check against working providers and a working App, in a fixed order", async () => {
    const report = await doctor();
    expect(report.checks.map((check) => [check.id, check.status])).toEqual([
      ["config", "pass"],
      ["key:openai", "pass"],
      ["provider:openai", "pass"],
      ["provider:local", "pass"],
      ["model:gpt-a", "pass"],
      ["model:llama", "pass"],
      ["github-app", "pass"],
      ["installations", "pass"],
      ["webhook-secret", "pass"],
      ["data-dir", "pass"],
      ["database", "skip"],
      ["isolation", "skip"],
    ]);
    expect(report.ok).toBe(true);
    expect(row(report, "github-app").detail).toContain("gadfly-doc (id 7)");
    expect(row(report, "installations").detail).toContain("octo-org");
    // The App was asked with its JWT, as GitHub wants.
    expect(github.requests({ method: "GET", path: "/app" })).toMatchObject([{ auth: "jwt" }]);
  });

  it("fails the config row when the file is missing (naming gadfly init) or a field is wrong", async () => {
    const missing = await runDoctor({
      env: env(),
      cwd: dir,
      configPath: join(dir, "nowhere.yml"),
      privateKey: PRIVATE_KEY,
      receivesWebhooks: true,
    });
    expect(row(missing, "config")).toMatchObject({ status: "fail" });
    expect(row(missing, "config").fix).toContain("gadfly init");
    expect(missing.ok).toBe(false);
    const bad = await doctor({ configText: goodConfig().replace("type: ollama", "type: olama") });
    expect(row(bad, "config").status).toBe("fail");
    expect(row(bad, "config").detail).toContain("providers[1]");
  });

  it("fails a provider's key row when its variable is unset, naming the variable", async () => {
    const { DOCTOR_OPENAI_KEY: _key, ...withoutKey } = env();
    const report = await doctor({ env: withoutKey });
    expect(row(report, "key:openai")).toMatchObject({ status: "fail" });
    expect(row(report, "key:openai").detail).toContain("DOCTOR_OPENAI_KEY not set");
    expect(report.ok).toBe(false);
  });

  it("fails a provider that refuses the key, and one that does not answer", async () => {
    const refused = await doctor({ env: { ...env(), DOCTOR_OPENAI_KEY: "sk-wrong" } });
    expect(row(refused, "provider:openai")).toMatchObject({ status: "fail" });
    expect(row(refused, "provider:openai").detail).toContain("HTTP 401");
    expect(row(refused, "provider:openai").fix).toContain("key was refused");
    expect(row(refused, "model:gpt-a").status).toBe("skip");

    const closed = await doctor({
      configText: goodConfig({ openaiURL: `http://127.0.0.1:${await freePort()}/v1` }),
    });
    expect(row(closed, "provider:openai").detail).toContain("connection refused");
  });

  it("bounds a provider that hangs by the timeout", async () => {
    const started = Date.now();
    const report = await doctor({
      configText: goodConfig({ openaiURL: `${silentUrl}/v1` }),
      timeoutMs: 300,
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(row(report, "provider:openai").detail).toContain("no answer within 0.3 s");
    expect(report.ok).toBe(false);
  });

  it("holds a place among each provider's capped calls while probing it, and leaves a busy one unchecked", async () => {
    const held: string[] = [];
    const released: string[] = [];
    const granted = await doctor({
      acquireSlot: async (provider) => {
        held.push(provider);
        return { release: async () => void released.push(provider) };
      },
    });
    expect(held.sort()).toEqual(["local", "openai"]);
    expect(released.sort()).toEqual(["local", "openai"]);
    expect(row(granted, "provider:openai").status).toBe("pass");
    const busy = await doctor({
      slotWaitMs: 200,
      acquireSlot: (_provider, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => reject(signal.reason)),
        ),
    });
    expect(row(busy, "provider:openai")).toMatchObject({ status: "skip" });
    expect(row(busy, "provider:openai").detail).toContain("slots stayed busy for 0.2 s");
    expect(row(busy, "model:gpt-a").status).toBe("skip");
  });

  it("fails a model the provider does not list", async () => {
    const report = await doctor({ configText: goodConfig({ model: "gpt-typo" }) });
    expect(row(report, "model:gpt-typo")).toMatchObject({ status: "fail" });
    expect(row(report, "model:gpt-typo").detail).toContain("does not list gpt-typo");
    expect(row(report, "model:llama").status).toBe("pass");
  });

  it("fails the App without APP_ID, with a key of another App, with a broken key", async () => {
    const { APP_ID: _id, ...noId } = env();
    expect(row(await doctor({ env: noId }), "github-app").fix).toContain("npm start");
    const otherApp = await doctor({ env: { ...env(), APP_ID: "8" } });
    expect(row(otherApp, "github-app")).toMatchObject({ status: "fail" });
    expect(row(otherApp, "github-app").fix).toContain("do not belong together");
    const broken = await doctor({ privateKey: "-----BEGIN RSA PRIVATE KEY-----\nnope\n" });
    expect(row(broken, "github-app").detail).toContain("not a PEM private key");
    const none = await doctor({ privateKey: null });
    expect(row(none, "github-app").detail).toContain("no private key");
  });

  it("fails installations when the App is installed nowhere, with the page to install it", async () => {
    const report = await doctor({ env: env(emptyGitHub) });
    expect(row(report, "github-app").status).toBe("pass");
    expect(row(report, "installations")).toMatchObject({ status: "fail" });
    expect(row(report, "installations").fix).toContain("/apps/gadfly-doc/installations/new");
  });

  it("fails a missing or public webhook secret, except for a worker", async () => {
    const { WEBHOOK_SECRET: _secret, ...noSecret } = env();
    expect(row(await doctor({ env: noSecret }), "webhook-secret").status).toBe("fail");
    const publicDefault = await doctor({ env: { ...env(), WEBHOOK_SECRET: "development" } });
    expect(row(publicDefault, "webhook-secret").status).toBe("fail");
    const worker = await doctor({ env: noSecret, receivesWebhooks: false });
    expect(row(worker, "webhook-secret").status).toBe("skip");
  });

  it("leaves keys and providers out for a web process, which runs no reviewer", async () => {
    const { DOCTOR_OPENAI_KEY: _key, ...withoutKey } = env();
    const report = await doctor({ env: withoutKey, runsRounds: false });
    expect(report.checks.filter((check) => /^(key|provider|model):/.test(check.id))).toEqual([]);
    expect(row(report, "providers").status).toBe("skip");
    // Nor an agent CLI: its sandbox is the workers' concern.
    expect(row(report, "isolation")).toMatchObject({
      status: "skip",
      detail: "a web process runs no agent CLI: the workers need the sandbox",
    });
    expect(report.ok).toBe(true);
  });

  it("fails a data directory that cannot be created", async () => {
    const file = join(dir, "a-file");
    await writeFile(file, "");
    const report = await doctor({ env: { ...env(), GADFLY_DATA_DIR: join(file, "data") } });
    expect(row(report, "data-dir")).toMatchObject({ status: "fail" });
    expect(row(report, "data-dir").detail).toContain("ENOTDIR");
  });

  it.skipIf(!existsSync("/proc/self"))(
    "fails a data directory that exists but cannot be written (/proc/self: even root cannot)",
    async () => {
      const report = await doctor({ env: { ...env(), GADFLY_DATA_DIR: "/proc/self" } });
      expect(row(report, "data-dir")).toMatchObject({ status: "fail" });
    },
  );

  it("fails a database that does not answer, naming the host and never the password", async () => {
    const report = await doctor({
      env: {
        ...env(),
        GADFLY_DATABASE_URL: `postgres://gadfly:pg-pass-123@127.0.0.1:${await freePort()}/gadfly`,
      },
    });
    expect(row(report, "database")).toMatchObject({ status: "fail" });
    expect(row(report, "database").detail).toMatch(/127\.0\.0\.1:\d+\/gadfly: ECONNREFUSED/);
    expect(JSON.stringify(report)).not.toContain("pg-pass-123");
  });

  it("reports agent CLI isolation: failing a level the host cannot give, warning below bubblewrap", async () => {
    const agent = [
      "providers:",
      "  - name: agent",
      "    type: command",
      `    command: ["${process.execPath}"]`,
      "models:",
      '  - { id: "agent/a", provider: agent }',
    ];
    const broken = {
      runProbe: async () => ({ ok: false as const, problem: "no user namespaces" }),
    };
    const named = await doctor({
      configText: [...agent, "sandbox:", "  isolation: bwrap", ""].join("\n"),
      isolationProbe: broken,
    });
    expect(row(named, "isolation")).toMatchObject({ status: "fail" });
    expect(row(named, "isolation").detail).toContain("no user namespaces");
    const weaker = await doctor({
      configText: `${agent.join("\n")}\n`,
      isolationProbe: { ...broken, getuid: () => 1000 },
    });
    expect(row(weaker, "isolation")).toMatchObject({ status: "warn" });
    expect(row(weaker, "provider:agent").status).toBe("pass");
    const strong = await doctor({
      configText: `${agent.join("\n")}\n`,
      isolationProbe: { runProbe: async () => ({ ok: true as const }) },
    });
    expect(row(strong, "isolation").status).toBe("pass");
    const notFound = await doctor({
      configText: `${agent.join("\n").replace(process.execPath, "no-such-agent-cli")}\n`,
      isolationProbe: { runProbe: async () => ({ ok: true as const }) },
    });
    expect(row(notFound, "provider:agent").detail).toContain("no-such-agent-cli not found");
  });

  it("lists Anthropic's models with the key as x-api-key, and fails a refused one", async () => {
    const anthropic = await startFakeAnthropicServer({ apiKey: "sk-ant-doctor" });
    anthropic.script("claude-sonnet-4-5", [{ text: "unused" }]);
    try {
      const text = [
        "providers:",
        "  - name: anthropic",
        "    type: anthropic",
        `    baseURL: ${anthropic.url}`,
        "    apiKeyEnv: DOCTOR_ANTHROPIC_KEY",
        "models:",
        '  - { id: "sonnet", provider: anthropic, model: "claude-sonnet-4-5" }',
        "",
      ].join("\n");
      const good = await doctor({
        configText: text,
        env: { ...env(), DOCTOR_ANTHROPIC_KEY: "sk-ant-doctor" },
      });
      expect(row(good, "provider:anthropic").status).toBe("pass");
      expect(row(good, "model:sonnet").status).toBe("pass");
      const refused = await doctor({
        configText: text,
        env: { ...env(), DOCTOR_ANTHROPIC_KEY: "sk-ant-wrong" },
      });
      expect(row(refused, "provider:anthropic").detail).toContain("HTTP 401");
      expect(row(refused, "provider:anthropic").fix).toContain("console.anthropic.com");
    } finally {
      await anthropic.close();
    }
  });

  it("prints one row per check with ✔/✘ and the fix, and a summary line", async () => {
    const report = await doctor({ configText: goodConfig({ model: "gpt-typo" }) });
    const table = formatDoctorTable(report);
    expect(table).toMatch(/^✔ config +\S/m);
    expect(table).toMatch(/^✘ model gpt-typo +openai does not list gpt-typo/m);
    expect(table).toMatch(/^ +→ correct the model name/m);
    expect(table.trimEnd().split("\n").at(-1)).toBe(
      "1 check failed: fix it and run gadfly doctor again.",
    );
  });
});

describe("gadfly doctor, the command", () => {
  it("exits 1 on a failed check, 0 when all pass, and never prints a key, in text or JSON", async () => {
    const configPath = await config(goodConfig());
    const run = async (extra: Record<string, string>, format: "text" | "json") => {
      const chunks: string[] = [];
      const code = await runDoctorCommand(
        { configPath, format, timeoutMs: 2_000 },
        {
          env: { ...env(), PRIVATE_KEY, ...extra },
          cwd: dir,
          stdout: { write: (text: string) => chunks.push(text) > 0 },
        },
      );
      return { code, out: chunks.join("") };
    };
    const good = await run({}, "text");
    expect(good.code).toBe(0);
    // A key refused: the row says so, the value never shows.
    const wrongKey = "sk-wrong-but-secret-abcdef0123456789";
    for (const format of ["text", "json"] as const) {
      const refused = await run({ DOCTOR_OPENAI_KEY: wrongKey }, format);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain("401");
      expect(refused.out).not.toContain(wrongKey);
      expect(refused.out).not.toContain(OPENAI_KEY);
      expect(refused.out).not.toContain(PRIVATE_KEY.split("\n")[1]);
    }
    const json = JSON.parse((await run({}, "json")).out) as {
      schemaVersion: number;
      ok: boolean;
      checks: { id: string; status: string; fix: string | null }[];
    };
    expect(json).toMatchObject({ schemaVersion: 1, ok: true });
    expect(json.checks[0]).toMatchObject({ id: "config", status: "pass", fix: null });
    // Probot's public default is shown as what it is, not redacted out of its own message.
    const publicDefault = await run({ WEBHOOK_SECRET: "development" }, "text");
    expect(publicDefault.code).toBe(1);
    expect(publicDefault.out).toMatch(/^✘ webhook secret .*"development"/m);
    expect(publicDefault.out).not.toContain("[redacted]");
  });
});

describe.skipIf(postgresUnavailableReason() !== null)("gadfly doctor with PostgreSQL", () => {
  let postgres: TestPostgres;

  beforeAll(async () => {
    postgres = await startTestPostgres();
  }, 60_000);

  afterAll(async () => {
    await postgres?.stop();
  });

  it("says the database answers, then at which schema version once the app migrated it", async () => {
    const url = await postgres.createDatabase();
    const before = await doctor({ env: { ...env(), GADFLY_DATABASE_URL: url } });
    expect(row(before, "database")).toMatchObject({ status: "pass" });
    expect(row(before, "database").detail).toContain("no Gadfly tables yet");
    const store = await openRunStore({ databaseUrl: url, dataDir: join(dir, "pg-data") });
    await store.close();
    const after = await doctor({ env: { ...env(), GADFLY_DATABASE_URL: url } });
    expect(row(after, "database").detail).toMatch(/schema version [1-9]\d*$/);
  });
});
