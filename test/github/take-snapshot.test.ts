import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tar from "tar";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_EXTRACT_LIMITS } from "../../src/github/extract-tarball.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { takeSnapshot } from "../../src/github/take-snapshot.js";

const repo = { owner: "octo", repo: "app" };

/** Just the calls takeSnapshot makes, with a tarball download that fails. */
function fakeOctokit(contents: Record<string, { content: string; encoding: string }>) {
  const listed = Object.keys(contents).map((filename) => ({
    filename,
    status: "modified",
    changes: 2,
    patch: "@@ -1 +1 @@\n-old\n+new",
  }));
  return {
    rest: {
      pulls: {
        get: async () => ({
          data: {
            title: "t",
            body: "b",
            changed_files: listed.length,
            head: { sha: "abc" },
            base: { sha: "base0" },
            draft: false,
          },
        }),
        listFiles: {},
      },
      repos: {
        getContent: async ({ path }: { path: string }) => ({
          data: { type: "file", ...contents[path] },
        }),
      },
    },
    paginate: async () => listed,
    request: async () => {
      throw new Error("the tarball failed half-way");
    },
  } as unknown as GitHubClient;
}

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("takeSnapshot's contents fallback", () => {
  it("starts from an empty workspace: nothing a failed extraction wrote stays", async () => {
    const root = await mkdtemp(join(tmpdir(), "gadfly-snapshot-"));
    made.push(root);
    const workspace = join(root, "workspace");
    // What a tarball that failed half-way would have left.
    await mkdir(join(workspace, "half"), { recursive: true });
    await writeFile(join(workspace, "half", "written.txt"), "partial\n");
    const octokit = fakeOctokit({
      "src/a.ts": { content: Buffer.from("new\n").toString("base64"), encoding: "base64" },
    });
    const snapshot = await takeSnapshot(octokit, repo, 1, "abc", workspace);
    expect(snapshot.workspaceSource).toBe("contents");
    expect(await readdir(workspace)).toEqual(["src"]);
    expect(await readFile(join(workspace, "src", "a.ts"), "utf8")).toBe("new\n");
    expect(existsSync(join(workspace, "half"))).toBe(false);
  });

  it("lists a file GitHub sends without content as not reviewed instead of writing it empty", async () => {
    const root = await mkdtemp(join(tmpdir(), "gadfly-snapshot-"));
    made.push(root);
    const workspace = join(root, "workspace");
    const octokit = fakeOctokit({
      "big.bin.txt": { content: "", encoding: "none" },
      "small.txt": { content: Buffer.from("x\n").toString("base64"), encoding: "base64" },
    });
    const snapshot = await takeSnapshot(octokit, repo, 1, "abc", workspace);
    expect(snapshot.notReviewed).toEqual([{ path: "big.bin.txt", reason: "too-large" }]);
    expect(await readdir(workspace)).toEqual(["small.txt"]);
  });

  it("writes no more than the tarball's byte limits allow, and lists the rest", async () => {
    const root = await mkdtemp(join(tmpdir(), "gadfly-snapshot-"));
    made.push(root);
    const workspace = join(root, "workspace");
    const base64 = (bytes: number) => Buffer.alloc(bytes, "x").toString("base64");
    const octokit = fakeOctokit({
      "a.txt": { content: base64(600), encoding: "base64" },
      "b.txt": { content: base64(600), encoding: "base64" },
      "huge.txt": { content: base64(2_000), encoding: "base64" },
      "c.txt": { content: base64(300), encoding: "base64" },
    });
    const limits = { ...DEFAULT_EXTRACT_LIMITS, maxTotalBytes: 1_000, maxFileBytes: 1_500 };
    const snapshot = await takeSnapshot(octokit, repo, 1, "abc", workspace, { limits });
    expect(snapshot.notReviewed).toEqual([
      { path: "b.txt", reason: "too-large" },
      { path: "huge.txt", reason: "too-large" },
    ]);
    expect((await readdir(workspace)).sort()).toEqual(["a.txt", "c.txt"]);
  });
});

describe("takeSnapshot's tarball", () => {
  it("lists a changed file the extraction left out with the extraction's own reason", async () => {
    const source = await mkdtemp(join(tmpdir(), "gadfly-snapshot-src-"));
    const out = await mkdtemp(join(tmpdir(), "gadfly-snapshot-out-"));
    made.push(source, out);
    const top = join(source, "octo-app-abc");
    await mkdir(join(top, "src"), { recursive: true });
    await writeFile(join(top, "src", "a.ts"), "new\n");
    await symlink("/etc/passwd", join(top, "passwd-link"));
    const chunks: Buffer[] = [];
    for await (const chunk of tar.c({ cwd: source, gzip: true, portable: true }, ["octo-app-abc"]))
      chunks.push(chunk as Buffer);
    const octokit = fakeOctokit({
      "src/a.ts": { content: "", encoding: "base64" },
      "passwd-link": { content: "", encoding: "base64" },
    });
    (octokit as unknown as { request: unknown }).request = async () => ({
      data: new Uint8Array(Buffer.concat(chunks)),
    });
    const snapshot = await takeSnapshot(octokit, repo, 1, "abc", out);
    expect(snapshot.notReviewed).toEqual([{ path: "passwd-link", reason: "unsafe-link" }]);
  });
});
