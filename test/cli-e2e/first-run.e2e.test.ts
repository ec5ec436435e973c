/**
 * The README's Quick start, followed as a new user does it, against the fakes: `npm start`
 * with nothing configured serves the setup page; the App is registered (the fake GitHub
 * converts the manifest code) and its credentials land in .env; the next start names
 * `gadfly init`; init writes a config; doctor reports a missing key as ✘, then every check
 * ✔; `npm start` then runs, logs the same table, and takes deliveries at the webhook URL the
 * setup page registered.
 */
import { copyFile, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETUP_NEXT_STEPS } from "../../src/boot/start-setup-mode.js";
import { type SpawnedApp, type Stack, spawnApp, waitFor } from "../e2e/harness.js";
import { deliver, type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import { startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import type { FakeModelServer } from "../fakes/model-fake-server.js";
import { ROOT, runGadfly } from "./run-gadfly.js";

const OPENAI_KEY = "sk-first-run-0123456789abcdef";

let github: FakeGitHub;
let openai: FakeModelServer;
let ollama: FakeModelServer;
let dir: string;
let baseEnv: Record<string, string>;

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 42, appSlug: "gadfly-first" });
  github.addRepo({ owner: "octo-org", name: "service", ownerType: "Organization" });
  openai = await startFakeOpenAIServer({ apiKey: OPENAI_KEY });
  ollama = await startFakeOllamaServer();
  dir = await mkdtemp(join(tmpdir(), "gadfly-first-run-"));
  // `npm start` runs in the checkout, where app.yml is.
  await copyFile(join(ROOT, "app.yml"), join(dir, "app.yml"));
  baseEnv = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    HOST: "127.0.0.1",
    GHE_HOST: new URL(github.url).host,
    GHE_PROTOCOL: "http",
    // No smee.io channel: nothing leaves 127.0.0.1.
    NO_SMEE_SETUP: "true",
    // The CLI from src/, as the app runs here.
    GADFLY_FROM_SOURCE: "1",
    LOG_FORMAT: "json",
    NODE_ENV: "test",
  };
});

afterAll(async () => {
  await Promise.allSettled([github?.close(), openai?.close(), ollama?.close()]);
});

/**
 * `npm start` as the e2e harness spawns it, but as a new user has it: no APP_ID, key, secret or
 * config of the harness's; only what `.env` and `gadfly.config.yml` in the directory say.
 */
function npmStart(env: Record<string, string> = {}): Promise<SpawnedApp> {
  const stack: Stack = {
    github,
    openai,
    ollama,
    dir,
    configPath: join(dir, "gadfly.config.yml"),
    dataDir: join(dir, "data"),
    close: async () => undefined,
  };
  return spawnApp(stack, {
    APP_ID: undefined,
    PRIVATE_KEY: undefined,
    WEBHOOK_SECRET: undefined,
    GADFLY_CONFIG: undefined,
    E2E_OPENAI_KEY: undefined,
    NO_SMEE_SETUP: "true",
    ...env,
  });
}

async function answers(url: string): Promise<Response | null> {
  try {
    return await fetch(url, { redirect: "manual" });
  } catch {
    return null;
  }
}

describe("first run, as the README's Quick start says", { timeout: 60_000 }, () => {
  it("registers the App in setup mode with no config at all, and says what comes next", async () => {
    const app = await npmStart();
    try {
      let page: Response | null = null;
      await waitFor(async () => {
        if (app.process.exitCode !== null) throw new Error(`exited:\n${app.output()}`);
        page = await answers(`http://127.0.0.1:${app.port}/probot`);
        return page?.ok === true;
      }, 20_000);
      const html = await (page as unknown as Response).text();
      // The manifest comes from app.yml: its name and events.
      expect(html).toContain("Gadfly");
      expect(html).toContain("pull_request");
      expect(app.output()).toContain("gadfly: setup mode (no APP_ID)");

      // GitHub sends the browser back with a code; the App's credentials go to .env.
      const back = await answers(`http://127.0.0.1:${app.port}/probot/setup?code=first`);
      expect(back?.status).toBe(302);
      expect(back?.headers.get("location")).toBe(
        `${github.url}/apps/gadfly-first/installations/new`,
      );
      const dotEnv = parseEnv(await readFile(join(dir, ".env"), "utf8"));
      expect(dotEnv.APP_ID).toBe("42");
      expect(dotEnv.WEBHOOK_SECRET).toBe("whsec-from-manifest-first");
      expect(dotEnv.PRIVATE_KEY).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
      await waitFor(() => app.output().includes(SETUP_NEXT_STEPS), 20_000);
    } finally {
      app.process.kill("SIGTERM");
      await app.exited;
    }
  });

  it("then, registered but without a config, stops at start naming gadfly init", async () => {
    const app = await npmStart();
    const code = await app.exited;
    expect(code).toBe(1);
    expect(app.output().trim()).toMatch(
      /^gadfly: \S+gadfly\.config\.yml: file not found \(.*`gadfly init`\)$/,
    );
  });

  it("gadfly init writes the config; doctor shows the missing key as ✘, then all ✔", async () => {
    const init = await runGadfly(["init", "--providers", "openai,ollama"], {
      cwd: dir,
      env: baseEnv,
    });
    expect(init.code, init.stderr).toBe(0);
    // The user points the providers at their servers (here, the fakes).
    const configPath = join(dir, "gadfly.config.yml");
    const config = (await readFile(configPath, "utf8"))
      .replace("https://api.openai.com/v1", `${openai.url}/v1`)
      .replace("http://127.0.0.1:11434", ollama.url);
    await writeFile(configPath, config);
    openai.script("gpt-5.1", [{ text: "unused" }]);
    ollama.script("qwen3-coder:30b", [{ text: "unused" }]);

    const missingKey = await runGadfly(["doctor"], { cwd: dir, env: baseEnv });
    expect(missingKey.code, missingKey.stderr).toBe(1);
    expect(missingKey.stdout).toMatch(/^✘ key for openai +OPENAI_API_KEY not set/m);
    expect(missingKey.stdout).toMatch(/^✔ provider ollama +reachable/m);
    expect(missingKey.stdout).toMatch(/^✔ GitHub App +gadfly-first \(id 42\)/m);
    expect(missingKey.stdout).toMatch(/^✔ installations +1 \(octo-org\)/m);

    const ready = await runGadfly(["doctor"], {
      cwd: dir,
      env: { ...baseEnv, OPENAI_API_KEY: OPENAI_KEY },
    });
    expect(ready.code, ready.stdout).toBe(0);
    expect(ready.stdout).not.toContain("✘");
    expect(ready.stdout).toMatch(/^✔ model gpt-5\.1 /m);
    expect(ready.stdout.trimEnd().split("\n").at(-1)).toBe("Ready for a first round.");
    expect(ready.stdout + ready.stderr).not.toContain(OPENAI_KEY);
  });

  it("and npm start runs, logging the same checks", async () => {
    const app = await npmStart({ OPENAI_API_KEY: OPENAI_KEY, GADFLY_DATA_DIR: join(dir, "data") });
    try {
      await waitFor(async () => {
        if (app.process.exitCode !== null) throw new Error(`exited:\n${app.output()}`);
        return (await answers(`http://127.0.0.1:${app.port}/ping`))?.ok === true;
      }, 20_000);
      await waitFor(() => app.output().includes("start-up checks"), 20_000);
      expect(app.output()).toContain("✔ provider openai");
      expect(app.output()).not.toContain(OPENAI_KEY);
      // Setup mode registered the App with its webhook URL at the root (Probot's manifest):
      // deliveries there are taken, signature checked, as at /api/github/webhooks.
      const secret = parseEnv(await readFile(join(dir, ".env"), "utf8")).WEBHOOK_SECRET ?? "";
      const ping = {
        id: "first-delivery",
        name: "ping",
        payload: { zen: "Keep it simple.", hook_id: 1 },
      };
      const root = `http://127.0.0.1:${app.port}/`;
      expect((await deliver(root, ping, secret)).status).toBe(200);
      expect((await deliver(`${root}api/github/webhooks`, ping, secret)).status).toBe(200);
      expect((await deliver(root, { ...ping, id: "forged" }, "development")).status).toBe(400);
    } finally {
      app.process.kill("SIGTERM");
      await app.exited;
    }
  });
});
