import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardFromEnv } from "../../src/boot/dashboard-from-env.js";
import { ConfigError } from "../../src/config/index.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { readScoreboard } from "../../src/scoreboard/index.js";
import { createDashboardHandler } from "../../src/server/index.js";
import { FakeClock } from "../helpers/fake-clock.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";
import { SEEDED_PRICES, seedScoreboardStore } from "../scoreboard/helpers/seed-scoreboard-store.js";

const TOKEN = "a-token-long-enough-0123456789";
let directory: TemporaryStoreDirectory;
let server: Server;
let url = "";

beforeAll(async () => {
  directory = await temporaryStoreDirectory();
  const clock = new FakeClock(1_700_000_000_000);
  const store = directory.track(await SqliteRunStore.open(directory.path, clock));
  const { now } = await seedScoreboardStore(store, clock, {
    title: '<script>alert("x")</script> & "quoted" @everyone',
  });
  const handler = createDashboardHandler({
    token: TOKEN,
    webUrl: "https://github.example",
    scoreboard: (query) => readScoreboard(store, { ...query, now, prices: SEEDED_PRICES }),
  });
  server = createServer((request, response) => {
    void handler(request, response).then((handled) => {
      if (!handled) response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gadfly/dashboard`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await directory.remove();
});

const bearer = { authorization: `Bearer ${TOKEN}` };

describe("the dashboard handler", () => {
  it("leaves other paths to the next handler", async () => {
    expect(
      (await fetch(url.replace("/dashboard", "/dashboards"), { headers: bearer })).status,
    ).toBe(404);
  });

  it("escapes a hostile title, sorts on the server without script, and links PRs on the host", async () => {
    const response = await fetch(`${url}?sort=failureRate&dir=desc`, { headers: bearer });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    const html = await response.text();
    expect(html).not.toContain("<script>alert");
    expect(html).toContain(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quoted&quot;",
    );
    // Only the page's own script, and it carries the nonce the policy names.
    const nonce = /script-src 'nonce-([^']+)'/.exec(
      response.headers.get("content-security-policy") ?? "",
    )?.[1];
    expect(html.match(/<script[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]);
    const order = [...html.matchAll(/<tr><td data-value="([a-z]+)">/g)].map((match) => match[1]);
    expect(order.slice(0, 3)).toEqual(["gamma", "beta", "alpha"]);
    expect(html).toContain('href="https://github.example/octo-org/widgets/pull/7"');
    expect(html).toContain(
      'aria-sort="descending"><a href="/gadfly/dashboard?since=30d&amp;sort=failureRate&amp;dir=asc"',
    );
  });

  it("answers HEAD without a body, and refuses other methods and bad queries plainly", async () => {
    const head = await fetch(url, { method: "HEAD", headers: bearer });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect((await fetch(url, { method: "PUT", headers: bearer })).status).toBe(405);
    const badRepo = await fetch(`${url}?repo=%3Cx%3E`, { headers: bearer });
    expect([badRepo.status, await badRepo.text()]).toEqual([400, "repo must be owner/name\n"]);
    expect((await fetch(`${url}?since=1y`, { headers: bearer })).status).toBe(400);
    expect((await fetch(`${url}?sort=constructor`, { headers: bearer })).status).toBe(400);
  });

  it("signs in: Secure behind an HTTPS proxy; a wrong token or an oversized form is refused", async () => {
    const signedIn = await fetch(url, {
      method: "POST",
      headers: { "x-forwarded-proto": "https" },
      body: new URLSearchParams({ token: TOKEN }),
      redirect: "manual",
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("set-cookie")).toMatch(
      /^gadfly_dashboard=[0-9a-f]{64}; Path=\/gadfly\/dashboard; HttpOnly; SameSite=Strict; Secure$/,
    );
    const wrong = await fetch(url, {
      method: "POST",
      body: new URLSearchParams({ token: "nope" }),
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("That token is not the dashboard's.");
    const flood = await fetch(url, { method: "POST", body: `token=${"x".repeat(10_000)}` });
    expect(flood.status).toBe(413);
    const forged = await fetch(url, { headers: { cookie: `gadfly_dashboard=${"0".repeat(64)}` } });
    expect(forged.status).toBe(401);
  });
});

describe("dashboardFromEnv", () => {
  const services = {
    store: {} as never,
    config: { models: [] } as never,
    onError: () => undefined,
  };
  it("gives no handler without the variable, and refuses a short token naming only the variable", () => {
    expect(dashboardFromEnv({}, services)).toBeNull();
    expect(dashboardFromEnv({ GADFLY_DASHBOARD_TOKEN: "  " }, services)).toBeNull();
    let error: unknown;
    try {
      dashboardFromEnv({ GADFLY_DASHBOARD_TOKEN: "short-secret" }, services);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toContain("GADFLY_DASHBOARD_TOKEN");
    expect(String((error as Error).message)).not.toContain("short-secret");
  });
});
