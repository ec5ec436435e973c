import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { marked } from "marked";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { crossExaminedConsensus } from "./cross-examined-page.js";
import { LENS_TITLES } from "./helpers/lens-titles.js";

const CHROMIUM = "/usr/bin/chromium";
const OUTPUT = join(process.cwd(), "test-output");
const HEAD = "21b4775c0ffee5e1a2b3c4d5e6f708192a3b4c5d";

if (!existsSync(CHROMIUM)) {
  console.warn(`consensus screenshot skipped: no Chromium at ${CHROMIUM} (CI installs it)`);
}

/**
 * The consensus comment as GitHub shows it: its markdown through a GFM renderer (tables, raw
 * `<details>`), in a headless Chromium, screenshotted under test-output/ for people to look at.
 */
describe.skipIf(!existsSync(CHROMIUM))("the consensus comment, rendered as GitHub does", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });
  afterAll(async () => browser?.close());

  it("shows severity words, links rows, and keeps details and hand-offs collapsed", async () => {
    const { body } = renderConsensusComment(crossExaminedConsensus(), {
      lenses: LENS_TITLES,
      code: { repoUrl: "https://github.com/o/r", headSha: HEAD },
      findingUrls: { "fp-leading-marker": "https://github.com/o/r/pull/7#discussion_r42" },
    });
    const html = await marked.parse(body, { gfm: true });
    const page = await browser.newPage({ viewport: { width: 1012, height: 900 } });
    await page.setContent(
      `<!doctype html><meta charset="utf-8"><body style="font-family:sans-serif;max-width:980px">${html}</body>`,
    );
    await mkdir(OUTPUT, { recursive: true });
    await writeFile(join(OUTPUT, "consensus-comment.html"), html);
    await page.screenshot({ path: join(OUTPUT, "consensus-comment.png"), fullPage: true });

    const agreed = page.locator("table").first();
    const firstColumn = await agreed
      .locator("tbody tr td:first-child")
      .evaluateAll((cells) => cells.map((cell) => cell.textContent?.trim()));
    expect(firstColumn).toEqual(["🟠 medium", "🟡 low", "🟡 low", "⚪ nit"]);
    const hrefs = await agreed
      .locator("a")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(hrefs).toContain(`https://github.com/o/r/blob/${HEAD}/agent/finalize.go#L130-L131`);
    expect(hrefs).toContain("https://github.com/o/r/pull/7#discussion_r42");
    // Every row's details and hand-off are there, collapsed: the summary shows, the prompt does not.
    const summary = page.locator("summary", { hasText: "1. 🟠 medium" });
    await expect(summary.isVisible()).resolves.toBe(true);
    const prompt = page.locator("pre", { hasText: "How to check it:" }).first();
    await expect(prompt.isVisible()).resolves.toBe(false);
    await summary.click();
    await expect(
      page.locator("summary", { hasText: "Fix hand-off" }).first().isVisible(),
    ).resolves.toBe(true);
    await page.close();
  });
});
