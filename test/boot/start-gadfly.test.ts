import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type RunningGadfly, startGadfly } from "../../src/boot/start-gadfly.js";

const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
  type: "pkcs1",
  format: "pem",
}) as string;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("startGadfly", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("runs the start-up checks with the process's node fetch, never the global fetch", async () => {
    // The first global fetch compiles undici's wasm HTTP parser: a served app must not make one.
    const globalFetch = vi.spyOn(globalThis, "fetch");
    const probes: string[] = [];
    const provider = createServer((request, response) => {
      probes.push(`${request.method} ${request.url}`);
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ object: "list", data: [{ id: "gpt-a", object: "model" }] }));
    });
    const providerPort = await listen(provider);
    cleanups.push(() => new Promise((resolve) => provider.close(resolve)));
    const dir = await mkdtemp(join(tmpdir(), "gadfly-start-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(
      join(dir, "gadfly.config.yml"),
      [
        "providers:",
        "  - name: openai",
        "    type: openai",
        `    baseURL: http://127.0.0.1:${providerPort}/v1`,
        "    apiKeyEnv: TEST_OPENAI_KEY",
        "models:",
        '  - { id: "gpt-a", provider: openai }',
        "",
      ].join("\n"),
    );

    const app: RunningGadfly = await startGadfly({
      cwd: dir,
      role: "all",
      env: {
        APP_ID: "1",
        PRIVATE_KEY: privateKey,
        WEBHOOK_SECRET: "start-gadfly-test",
        PORT: String(await freePort()),
        HOST: "127.0.0.1",
        GADFLY_CONFIG: join(dir, "gadfly.config.yml"),
        GADFLY_DATA_DIR: join(dir, "data"),
        TEST_OPENAI_KEY: "sk-start-gadfly-test",
        LOG_LEVEL: "silent",
        NODE_ENV: "test",
      },
    });
    cleanups.push(() => app.stop());

    await vi.waitFor(() => expect(probes).toEqual(["GET /v1/models"]), { timeout: 10_000 });
    expect(globalFetch).not.toHaveBeenCalled();
  });
});
