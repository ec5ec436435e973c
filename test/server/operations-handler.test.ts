import { generateKeyPairSync } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { Probot, Server as ProbotServer } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { dashboardAuth } from "../../src/server/dashboard-auth.js";
import {
  createOperationsHandler,
  type OperationsHandlerOptions,
} from "../../src/server/operations-handler.js";
import { startOperationsServer } from "../../src/server/start-operations-server.js";

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(overrides: Partial<OperationsHandlerOptions> = {}): Promise<string> {
  const handler = createOperationsHandler({
    ready: async () => undefined,
    metrics: {
      render: async () =>
        "# HELP gadfly_demo_total Demo.\n# TYPE gadfly_demo_total counter\ngadfly_demo_total 1\n",
    },
    readyTimeoutMs: 100,
    ...overrides,
  });
  const server = await startOperationsServer(handler, { port: 0, host: "127.0.0.1" });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the operations endpoints", () => {
  it("with the dashboard's token, keep /metrics to whoever sends it; health stays open", async () => {
    const token = "metrics-token-0123456789abcdef";
    const base = await serve({ metricsAllowed: dashboardAuth(token).allows });
    const bare = await fetch(`${base}/metrics`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toBe('Bearer realm="gadfly"');
    expect(await bare.text()).not.toContain("gadfly_demo_total");
    const wrong = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${token}x` },
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect([right.status, await right.text()]).toEqual([
      200,
      expect.stringContaining("gadfly_demo_total 1"),
    ]);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it("answer /healthz, /readyz and /metrics, and leave other paths alone", async () => {
    const base = await serve();
    const health = await fetch(`${base}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, "ok\n"]);
    const ready = await fetch(`${base}/readyz?verbose=1`);
    expect([ready.status, await ready.text()]).toEqual([200, "ready\n"]);
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(await metrics.text()).toContain("gadfly_demo_total 1\n");
    expect((await fetch(`${base}/api/github/webhooks`)).status).toBe(404);
    const post = await fetch(`${base}/metrics`, { method: "POST" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
  });

  it("report not ready, without the cause, when the store fails or does not answer in time", async () => {
    const causes: unknown[] = [];
    const failing = await serve({
      ready: async () => {
        throw new Error("connect ECONNREFUSED postgres://gadfly:hunter2@db");
      },
      onNotReady: (error) => causes.push(error),
    });
    const refused = await fetch(`${failing}/readyz`);
    const body = await refused.text();
    expect([refused.status, body]).toEqual([503, "not ready\n"]);
    expect(causes).toHaveLength(1);

    const hanging = await serve({ ready: () => new Promise(() => undefined) });
    const started = Date.now();
    expect((await fetch(`${hanging}/readyz`)).status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2000);
    // Liveness does not depend on the store: a restart would not fix the database.
    expect((await fetch(`${hanging}/healthz`)).status).toBe(200);
  });

  it("fail the scrape rather than serve a partial text when a collector fails", async () => {
    const base = await serve({
      metrics: {
        render: async () => {
          throw new Error("queue unreachable");
        },
      },
    });
    expect((await fetch(`${base}/metrics`)).status).toBe(500);
  });

  it("mount on Probot's own server with addHandler, beside the webhook route", async () => {
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const probe = await startOperationsServer(async () => false, { port: 0, host: "127.0.0.1" });
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const log = pino({ level: "silent" });
    const probot = new ProbotServer({
      Probot: Probot.defaults({ appId: 1, privateKey, secret: "test", log }),
      log,
      port,
      host: "127.0.0.1",
    });
    const handler = createOperationsHandler({
      ready: async () => undefined,
      metrics: { render: async () => "" },
    });
    await probot.load((_app, { addHandler }) => addHandler(handler));
    await probot.start();
    try {
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      // Probot's webhook route is still Probot's.
      const webhook = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      // Refused for its missing signature: by Probot, not by a 404 of ours.
      expect(webhook.status).toBe(400);
    } finally {
      await probot.stop();
    }
  });
});
