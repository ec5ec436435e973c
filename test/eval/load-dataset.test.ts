import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadDataset } from "../../src/eval/index.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "eval");

describe("loadDataset", () => {
  it("reads AACR-Bench's format: source_commit is the base, ranges written backwards are put right", async () => {
    const entries = await loadDataset({ path: join(FIXTURES, "aacr.json"), reposDir: "/clones" });
    expect(entries[0]).toMatchObject({
      id: "acme__repo-1",
      url: "https://github.com/acme/repo/pull/1",
      repoDir: "/clones/repo",
      base: "pr1-base",
      head: "pr1-head",
    });
    expect(entries[0]?.gold[0]).toEqual({
      path: "src/cart.ts",
      side: "right",
      fromLine: 10,
      toLine: 12,
      category: "Code Defect",
      // AACR-Bench's `note` is the comment's text: what --judge reads.
      body: "The discount is applied twice when the coupon is stacked.",
    });
    expect(entries[0]?.gold[2]?.side).toBe("left");
  });

  it("finds an AACR-Bench clone at DIR/owner/name before DIR/name", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gadfly-eval-"));
    await mkdir(join(dir, "acme", "repo"), { recursive: true });
    const entries = await loadDataset({ path: join(FIXTURES, "aacr.json"), reposDir: dir });
    expect(entries[0]?.repoDir).toBe(join(dir, "acme", "repo"));
  });

  it("reads the native format, the gold range defaulting to one line on the head side", async () => {
    const entries = await loadDataset({ path: join(FIXTURES, "native.json"), reposDir: null });
    expect(entries.map((entry) => entry.repoDir)).toEqual([
      join(FIXTURES, "repo"),
      join(FIXTURES, "repo"),
    ]);
    expect(entries[0]?.gold[1]).toEqual({
      path: "src/cart.ts",
      side: "right",
      fromLine: 25,
      toLine: 25,
      category: "Security Vulnerability",
      body: expect.stringContaining("rounded down"),
    });
    expect(entries[1]?.gold[1]?.body).toBe("The password reset token never expires.");
  });

  it.each([
    [
      {
        format: "gadfly-eval",
        version: 1,
        entries: [{ id: "a", repo: "r", base: "--upload-pack=x", head: "h", gold: [] }],
      },
      /is not a git revision/,
    ],
    [
      {
        format: "gadfly-eval",
        version: 1,
        entries: [
          { id: "a", repo: "r", base: "b", head: "h", gold: [] },
          { id: "a", repo: "r", base: "b", head: "h", gold: [] },
        ],
      },
      /"a" is repeated/,
    ],
    [
      {
        format: "gadfly-eval",
        version: 1,
        entries: [{ id: "../x", repo: "r", base: "b", head: "h", gold: [] }],
      },
      /entries\.0\.id/,
    ],
    [
      [
        {
          githubPrUrl: "https://example.com/x",
          source_commit: "a",
          target_commit: "b",
          comments: [],
        },
      ],
      /not a GitHub pull request URL/,
    ],
    [{ something: "else" }, /format/],
  ])("refuses %j", async (dataset, message) => {
    const dir = await mkdtemp(join(tmpdir(), "gadfly-eval-"));
    const path = join(dir, "d.json");
    await writeFile(path, JSON.stringify(dataset));
    await expect(loadDataset({ path, reposDir: null })).rejects.toThrow(message);
  });
});
