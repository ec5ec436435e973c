import { existsSync } from "node:fs";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { FakeClock } from "../helpers/fake-clock.js";
import { DAY, seedScoreboardStore } from "../scoreboard/helpers/seed-scoreboard-store.js";
import { ROOT, type RunningApp, type Stack, startApp, startStack } from "./harness.js";

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it): no browser download. */
const CHROMIUM = "/usr/bin/chromium";
const TOKEN = "dashboard-token-0123456789abcdef";
const OUTPUT = join(ROOT, "test-output");
// What the person who opened a pull request controls: the repository's name as the store
// keeps it from the webhook, and a model's finding title quoting the change.
const HOSTILE_REPO = { owner: "octo-org", repo: '"><img src=x onerror=alert(1)>' };
const HOSTILE_TITLE = "</td><script>alert('title')</script><b>bold</b>";

const CONFIG_MODELS = `  - { id: alpha, provider: openai, price: { input: 1, cachedInput: 0.5, output: 2 } }
  - { id: beta, provider: openai, price: { input: 0.5, output: 4 } }
  - { id: gamma, provider: openai }
`;

let stack: Stack;
let app: RunningApp;
let browser: Browser;

describe.skipIf(!existsSync(CHROMIUM))("the dashboard in a headless Chromium", () => {
  beforeAll(async () => {
    stack = await startStack({ models: [] });
    // The harness's config with the seeded models and their prices.
    const config = await readFile(stack.configPath, "utf8");
    await writeFile(stack.configPath, config.replace("models:\n", `models:\n${CONFIG_MODELS}`));
    const clock = new FakeClock(Date.now() - 45 * DAY);
    const store = await SqliteRunStore.open(join(stack.dataDir, "gadfly.sqlite"), clock);
    await seedScoreboardStore(store, clock, { widgets: HOSTILE_REPO, title: HOSTILE_TITLE });
    await store.close();
    app = await startApp(stack, { GADFLY_DASHBOARD_TOKEN: TOKEN });
    // Chromium refuses to run as root with its sandbox on, and CI containers run as root; the
    // page it loads is our own, served from 127.0.0.1, so the test runs it without one.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    await mkdir(OUTPUT, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await stack?.close();
  });

  it("refuses without the token (401 and the sign-in form), and with a wrong one", async () => {
    const bare = await fetch(`${app.url}/gadfly/dashboard`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toBe('Bearer realm="gadfly dashboard"');
    const form = await bare.text();
    expect(form).toContain('<form method="post" action="/gadfly/dashboard">');
    expect(form).not.toContain("alpha");
    const wrong = await fetch(`${app.url}/gadfly/dashboard`, {
      headers: { authorization: "Bearer dashboard-token-0123456789abcdeX" },
    });
    expect(wrong.status).toBe(401);
    const bearer = await fetch(`${app.url}/gadfly/dashboard`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get("content-security-policy")).toMatch(/script-src 'nonce-[^']+'/);
  });

  it("signs in through the form, shows each model's figures, sorts, and keeps hostile names as text", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const first = await page.goto(`${app.url}/gadfly/dashboard`);
    expect(first?.status()).toBe(401);
    await page.fill("#token", TOKEN);
    const [signedIn] = await Promise.all([
      page.waitForNavigation(),
      page.click("button[type=submit]"),
    ]);
    expect(signedIn?.status()).toBe(200);
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => [cookie.name, cookie.httpOnly, cookie.sameSite])).toEqual([
      ["gadfly_dashboard", true, "Strict"],
    ]);
    expect(cookies[0]?.value).not.toContain(TOKEN);

    const rows = () =>
      page.$$eval("#models tbody tr", (trs) =>
        trs.map((tr) =>
          Array.from(
            tr.querySelectorAll("td"),
            (cell) => (cell as { textContent: string | null }).textContent ?? "",
          ),
        ),
      );
    expect(await page.$$eval("#models thead th", (ths) => ths.map((th) => th.textContent))).toEqual(
      [
        "Model",
        "Findings",
        "Agreed",
        "Confirmed",
        "Refuted",
        "Fixed",
        "Dismissed",
        "👍",
        "👎",
        "Cost",
        "$ / useful",
        "Median time",
        "Failed",
      ],
    );
    expect(await rows()).toEqual([
      [
        "alpha",
        "4",
        "50%",
        "1 of 1",
        "0",
        "50%",
        "25%",
        "2",
        "0",
        "$2.69",
        "$0.895",
        "12.0 s",
        "0% (0/5)",
      ],
      [
        "beta",
        "1",
        "100%",
        "0 of 0",
        "0",
        "0%",
        "0%",
        "2",
        "0",
        "$1.91",
        "$1.91",
        "17.0 s",
        "33% (1/3)",
      ],
      ["gamma", "1", "0%", "0 of 1", "1", "0%", "100%", "0", "1", "—", "—", "40.0 s", "50% (1/2)"],
    ]);

    // Sorting in the page: no navigation, rows reordered, the heading says how.
    const before = page.url();
    await page.click('#models th a[data-key="agreementRate"]');
    expect((await rows()).map((row) => row[0])).toEqual(["beta", "alpha", "gamma"]);
    await page.click('#models th a[data-key="agreementRate"]');
    expect((await rows()).map((row) => row[0])).toEqual(["gamma", "alpha", "beta"]);
    expect(
      await page.getAttribute('#models th:has(a[data-key="agreementRate"])', "aria-sort"),
    ).toBe("ascending");
    await page.click('#models th a[data-key="costPerUseful"]');
    // Unknown costs go last whichever the direction.
    expect((await rows()).map((row) => row[0])).toEqual(["beta", "alpha", "gamma"]);
    expect(page.url()).toBe(before);

    // The attacker's repository name and title are shown as text; nothing of theirs runs.
    const text = await page.textContent("body");
    expect(text).toContain(`${HOSTILE_REPO.owner}/${HOSTILE_REPO.repo}#7`);
    expect(text).toContain(HOSTILE_TITLE);
    expect(await page.$$eval("img, b, #rounds script", (nodes) => nodes.length)).toBe(0);
    expect(dialogs).toEqual([]);
    const prLinks = await page.$$eval("#rounds a", (links) =>
      links.map((a) => a.getAttribute("href")),
    );
    expect(prLinks).toContain(
      `http://${new URL(stack.github.url).host}/octo-org/${encodeURIComponent(HOSTILE_REPO.repo)}/pull/7`,
    );
    expect(await page.$$eval("svg rect", (rects) => rects.length)).toBeGreaterThanOrEqual(6);

    await page.screenshot({ path: join(OUTPUT, "dashboard.png"), fullPage: true });
    expect((await stat(join(OUTPUT, "dashboard.png"))).size).toBeGreaterThan(10_000);
    await page.close();
  }, 60_000);

  it("narrows to one repository and reads on a phone without the page scrolling sideways", async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      extraHTTPHeaders: { authorization: `Bearer ${TOKEN}` },
    });
    const page = await context.newPage();
    const response = await page.goto(`${app.url}/gadfly/dashboard?repo=acme/gizmo&since=30d`);
    expect(response?.status()).toBe(200);
    expect(
      await page.$$eval("#models tbody tr", (trs) =>
        trs.map((tr) => tr.querySelector("td")?.textContent),
      ),
    ).toEqual(["alpha"]);
    expect(await page.$$eval("#rounds tbody tr", (trs) => trs.length)).toBe(2);
    // Evaluated in the page (the test's own TypeScript has no DOM types).
    const overflow = await page.evaluate<number>(
      "document.documentElement.scrollWidth - document.documentElement.clientWidth",
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(OUTPUT, "dashboard-phone.png"), fullPage: true });
    await context.close();
  }, 60_000);

  it("never writes the token or the session cookie to the log", async () => {
    const session = await fetch(`${app.url}/gadfly/dashboard`, {
      method: "POST",
      body: new URLSearchParams({ token: TOKEN }),
      redirect: "manual",
    });
    expect(session.status).toBe(303);
    const cookie = /gadfly_dashboard=([0-9a-f]+)/.exec(
      session.headers.get("set-cookie") ?? "",
    )?.[1];
    expect(cookie).toMatch(/^[0-9a-f]{64}$/);
    expect(
      (
        await fetch(`${app.url}/gadfly/dashboard`, {
          headers: { cookie: `gadfly_dashboard=${cookie}` },
        })
      ).status,
    ).toBe(200);
    const log = app.output();
    expect(log).toContain("/gadfly/dashboard");
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(cookie);
  });

  it("serves no page at all without GADFLY_DASHBOARD_TOKEN: 404 like any unknown path", async () => {
    await app.stop();
    const plain = await startApp(stack, { GADFLY_DASHBOARD_TOKEN: undefined });
    try {
      const response = await fetch(`${plain.url}/gadfly/dashboard`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.status).toBe(404);
      const login = await fetch(`${plain.url}/gadfly/dashboard`, {
        method: "POST",
        body: new URLSearchParams({ token: TOKEN }),
        redirect: "manual",
      });
      expect(login.status).toBe(404);
    } finally {
      await plain.stop();
    }
  }, 60_000);
});
