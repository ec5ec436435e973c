import { describe, expect, it } from "vitest";
import { renderStatusBoard } from "../../src/render/render-status-board.js";
import type { RoundStatus } from "../../src/run/round-status.js";
import { finishedStatus, runningStatus } from "./reference-page.js";

const FOOTER_END = "Advisory only — does not block merge.</sub>\n";

describe("renderStatusBoard", () => {
  it("leads with the marker, heading, round, short head SHA and the caller's time", () => {
    const lines = renderStatusBoard(runningStatus()).split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "<!-- gadfly-status-board -->",
      "## 🪰 Gadfly — live review status",
      "Round 2 · head `21b4775`",
      "2/4 reviewers finished · updated 2026-08-06 00:27:21Z",
    ]);
  });

  it("counts a reviewer as finished once every lens ended, failures included", () => {
    const status = runningStatus();
    const body = renderStatusBoard(status);
    expect(body).toContain("#### `kimi-k2.6:cloud` · ollama-cloud — ⚠️ failed");
    expect(body).toContain("#### `claude-code/opus` · claude-code — 🔄 running (2/5 done)");
    expect(body).toContain("- 🔄 **maintainability** — running (turn 5)");
    expect(body).toContain("- ⚠️ **security** — timed out after 900 s");
  });

  it("lists the files not reviewed once the round has ended, and says so when there are none", () => {
    const finished = renderStatusBoard(finishedStatus());
    expect(finished).toContain("**Not reviewed:** 3 files, so this review is partial.");
    expect(finished).toContain("- `docs/diagram.png` — binary file");
    expect(finished).toContain("resumed after a restart");
    expect(renderStatusBoard(runningStatus())).not.toContain("Not reviewed");
    const complete = renderStatusBoard({ ...finishedStatus(), notReviewed: [] });
    expect(complete).toContain("Every changed file was reviewed.");
    const failed = renderStatusBoard({
      ...finishedStatus(),
      notReviewed: [],
      failure: "the diff could not be fetched",
    });
    expect(failed).toContain("⚠️ The round failed: the diff could not be fetched");
    expect(failed).not.toContain("Every changed file was reviewed.");
  });

  it("names 50 unreviewed files at most and counts the rest", () => {
    const notReviewed = Array.from({ length: 120 }, (_, i) => ({
      path: `gen/f${i}.pb.go`,
      reason: "generated" as const,
    }));
    const body = renderStatusBoard({ ...finishedStatus(), notReviewed });
    expect(body.match(/^- `gen\//gm)).toHaveLength(50);
    expect(body).toContain("- … and 70 more files");
  });

  it("escapes what a provider or failure reason could smuggle in", () => {
    const status: RoundStatus = {
      ...runningStatus(),
      reviewers: [
        {
          model: "m`x",
          provider: "p|@octocat",
          lenses: [
            {
              lens: "security",
              state: "failed",
              reason: "boom\n</details> <!-- gadfly-consensus --> @admin",
            },
          ],
        },
      ],
    };
    const body = renderStatusBoard(status);
    expect(body).toContain("#### ``m`x`` · p|@\u200Doctocat — ⚠️ failed");
    expect(body).toContain(
      "- ⚠️ **security** — boom &lt;/details> &lt;!-- gadfly-consensus --> @\u200Dadmin",
    );
  });

  it("fits a tiny budget by dropping detail, keeping marker and footer", () => {
    const notReviewed = Array.from({ length: 500 }, (_, i) => ({
      path: `assets/${"x".repeat(100)}${i}.png`,
      reason: "binary" as const,
    }));
    const status = { ...finishedStatus(), notReviewed };
    for (const maxLength of [20_000, 2_500, 800, 500]) {
      const body = renderStatusBoard(status, { maxLength });
      expect(body.length).toBeLessThanOrEqual(maxLength);
      expect(body.startsWith("<!-- gadfly-status-board -->\n")).toBe(true);
      expect(body.endsWith(FOOTER_END)).toBe(true);
    }
    expect(renderStatusBoard(status, { maxLength: 2_500 })).toMatch(
      /`assets\/x+0\.png`[\s\S]*… and \d+ more files/,
    );
    expect(renderStatusBoard(status, { maxLength: 2_500 })).toContain("- ✅ **security**");
    expect(renderStatusBoard(status, { maxLength: 800 })).not.toContain("- ✅ **security**");
    expect(renderStatusBoard(status, { maxLength: 500 })).toMatch(
      /#### … and \d more reviewers?\n/,
    );
  });
});
