import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, type Stack, spawnApp, startApp, startStack, waitFor } from "./harness.js";

/*
 * `npm start` says where it listens and how GitHub reaches it, listens where HOST says (every
 * interface with 0.0.0.0, as a server needs), and keeps /metrics to the dashboard's token
 * when there is one, since that port is the public webhook port.
 */

const TOKEN = "metrics-token-0123456789abcdef";

/** An IPv4 address of this machine other than loopback, if it has one. */
function otherAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry?.family === "IPv4" && !entry.internal)?.address;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { redirect: "manual" })).status < 500;
  } catch {
    return false;
  }
}

describe("where npm start listens", { timeout: 40_000 }, () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("in setup mode with HOST=0.0.0.0: every interface, and the line asks for the public address", async () => {
    const app = await spawnApp(stack, {
      APP_ID: undefined,
      WEBHOOK_SECRET: undefined,
      HOST: "0.0.0.0",
      NO_SMEE_SETUP: "true",
    });
    try {
      await waitFor(async () => {
        if (app.process.exitCode !== null) throw new Error(`exited:\n${app.output()}`);
        return answers(`http://127.0.0.1:${app.port}/probot`);
      }, 20_000);
      const other = otherAddress();
      if (other !== undefined)
        expect(await answers(`http://${other}:${app.port}/probot`)).toBe(true);
      await waitFor(() => app.output().includes("gadfly: setup mode"), 10_000);
      expect(app.output()).toContain(
        `gadfly: setup mode (no APP_ID): open http://<this host's public address>:${app.port} (or http://localhost:${app.port} here) to register the GitHub App from app.yml; the App's webhook URL will be the address you open the page at\n`,
      );
    } finally {
      app.process.kill("SIGTERM");
      await app.exited;
    }
  });

  it("refuses setup mode under NODE_ENV=production in one line that says what to do", async () => {
    const app = await spawnApp(stack, {
      APP_ID: undefined,
      WEBHOOK_SECRET: undefined,
      NODE_ENV: "production",
    });
    expect(await app.exited).toBe(1);
    expect(app.output().trim().split("\n")).toEqual([
      expect.stringMatching(
        /^gadfly: environment: APP_ID: not set, and NODE_ENV=production keeps Probot's setup mode off: unset NODE_ENV/,
      ),
    ]);
  });

  describe("served, on loopback, with a dashboard token", () => {
    let app: RunningApp;

    beforeAll(async () => {
      app = await startApp(stack, { GADFLY_DASHBOARD_TOKEN: TOKEN });
    }, 60_000);

    afterAll(async () => {
      await app?.stop();
    });

    it("logs where it listens, where webhooks go, and that GitHub cannot reach loopback", async () => {
      await waitFor(() => app.output().includes("listening on http://localhost:"), 10_000);
      const line = app
        .output()
        .split("\n")
        .find((entry) => entry.includes("listening on http://localhost:"));
      const logged = JSON.parse(line ?? "{}") as { msg?: string; port?: number; host?: string };
      expect(logged).toMatchObject({ host: "127.0.0.1", port: Number(new URL(app.url).port) });
      expect(logged.msg).toBe(
        `listening on http://localhost:${new URL(app.url).port}; webhooks at /api/github/webhooks (or the root): only this machine can connect: set HOST=0.0.0.0 (or this host's address) for GitHub to reach it, or forward deliveries with WEBHOOK_PROXY_URL`,
      );
    });

    it("keeps /metrics to the token; health stays open to probes", async () => {
      expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
      const scraped = await fetch(`${app.url}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain("gadfly_");
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    });
  });
});
