import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, expect, it } from "vitest";
import { buildTarball } from "./build-tarball.js";

const directory = mkdtempSync(join(tmpdir(), "fake-github-tar-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it("writes paths of any length that tar extracts, and the commit id git reads", () => {
  const sha = "0123456789abcdef0123456789abcdef01234567";
  const veryLong = `${"segment-of-thirty-characters-/".repeat(10)}end.txt`;
  const longName = `dir/${"n".repeat(120)}.txt`;
  const files = new Map([
    ["README.md", Buffer.from("hello\n")],
    [veryLong, Buffer.from("deep\n")],
    [longName, Buffer.from("wide\n")],
    ["empty.txt", Buffer.alloc(0)],
    ["block.bin", Buffer.alloc(512, 7)],
  ]);
  const archive = buildTarball("owner-repo-0123456", files, sha, new Date("2026-01-01T00:00:00Z"));
  writeFileSync(join(directory, "archive.tar.gz"), archive);
  execFileSync("tar", ["-xzf", "archive.tar.gz"], { cwd: directory });
  const root = join(directory, "owner-repo-0123456");
  for (const [path, content] of files) {
    expect(readFileSync(join(root, path)).equals(content), path).toBe(true);
  }
  const commitId = execFileSync("git", ["get-tar-commit-id"], { input: gunzipSync(archive) });
  expect(commitId.toString().trim()).toBe(sha);
});
