import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, realpath, rm, symlink, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CollectLocalChangeOptions,
  collectLocalChange,
  WORKTREE_PREFIX,
} from "../../src/cli/collect-local-change.js";
import { LocalChangeError } from "../../src/cli/local-change-error.js";
import { GitCommandError, type GitRunner } from "../../src/cli/run-git.js";
import type { DiffFile } from "../../src/diff/diff-file.js";
import { createGitRepository, type GitRepository } from "./git-repository.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function repository(initialBranch = "main"): Promise<GitRepository> {
  const repo = await createGitRepository(initialBranch);
  cleanups.push(repo.remove);
  return repo;
}

async function collect(repo: GitRepository, options: Partial<CollectLocalChangeOptions> = {}) {
  const change = await collectLocalChange({ repoPath: repo.root, env: repo.env, ...options });
  cleanups.push(change.cleanup);
  return change;
}

function byPath(files: DiffFile[]): Record<string, DiffFile> {
  return Object.fromEntries(files.map((file) => [file.path, file]));
}

function addedText(file: DiffFile | undefined): string {
  return (file?.hunks ?? [])
    .flatMap((hunk) => hunk.lines.filter((line) => line.type === "add").map((line) => line.content))
    .join("\n");
}

const LONG_FILE = Array.from({ length: 12 }, (_, index) => `line ${index}\n`).join("");

/** main with a few files, then a feature branch with two commits. */
async function featureBranch(): Promise<{ repo: GitRepository; mainSha: string }> {
  const repo = await repository();
  await repo.write("src/keep.ts", "export const keep = 1;\n");
  await repo.write("src/old-name.ts", `${"export const line = 'same';\n".repeat(20)}`);
  await repo.write("src/doomed.ts", "export const doomed = true;\n");
  await repo.write(".gitignore", "*.log\n");
  await repo.write("src/long.ts", LONG_FILE);
  const mainSha = repo.commit("Initial layout");
  repo.git("checkout", "--quiet", "-b", "feature/login");
  await repo.write("src/keep.ts", "export const keep = 2;\n");
  repo.git("mv", "src/old-name.ts", "src/new-name.ts");
  await unlink(join(repo.root, "src/doomed.ts"));
  repo.commit("Rename and delete");
  await repo.write("assets/logo.bin", Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02, 0x00]));
  repo.commit("Add a logo\n\nBinary, for the header.");
  return { repo, mainSha };
}

async function listTree(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

describe("collectLocalChange: the working tree's workspace", () => {
  it("holds the tracked files as the working tree has them and the untracked ones, never .git or a gitignored file", async () => {
    const repo = await repository();
    await repo.write(".gitignore", ".npmrc\n*.log\n");
    await repo.write("src/a.ts", "export const a = 1;\n");
    await repo.write("src/gone.ts", "export const gone = 1;\n");
    await repo.write("README.md", "readme\n");
    repo.commit("First");
    await repo.write(".npmrc", "//registry.npmjs.org/:_authToken=npm_SECRETTOKEN0123456789\n");
    await repo.write("debug.log", "ignored\n");
    await repo.write("src/a.ts", "export const a = 2;\n");
    await repo.write("src/new.ts", "export const created = 1;\n");
    await unlink(join(repo.root, "src/gone.ts"));
    await symlink("a.ts", join(repo.root, "src/link.ts"));

    const change = await collect(repo, { base: "HEAD" });
    expect(await listTree(change.workspaceDir)).toEqual([
      ".gitignore",
      "README.md",
      "src/a.ts",
      "src/link.ts",
      "src/new.ts",
    ]);
    expect(await readFile(join(change.workspaceDir, "src/a.ts"), "utf8")).toBe(
      "export const a = 2;\n",
    );
    expect(existsSync(join(change.workspaceDir, ".git"))).toBe(false);
    await change.cleanup();
    expect(existsSync(change.workspaceDir)).toBe(false);
  });
});

describe("collectLocalChange: the working tree against the default branch", () => {
  it("takes committed, uncommitted and untracked changes since the merge-base with main", async () => {
    const { repo, mainSha } = await featureBranch();
    // main moves on after the branch point: its new commit must not appear in the diff.
    repo.git("checkout", "--quiet", "main");
    await repo.write("src/main-only.ts", "export const mainOnly = 1;\n");
    repo.commit("Work on main");
    repo.git("checkout", "--quiet", "feature/login");
    await repo.write("src/keep.ts", "export const keep = 3;\n");
    await repo.write("notes/todo.md", "- write tests\n- ship\n");
    await repo.write("debug.log", "ignored by .gitignore\n");

    const change = await collect(repo);

    expect(change.baseSha).toBe(mainSha);
    expect(change.headSha.startsWith(WORKTREE_PREFIX)).toBe(true);
    // A copy of what the change is about, not the checkout itself.
    expect(change.workspaceDir).not.toBe(await realpath(repo.root));
    expect(await readFile(join(change.workspaceDir, "src/keep.ts"), "utf8")).toBe(
      "export const keep = 3;\n",
    );
    expect(existsSync(join(change.workspaceDir, "debug.log"))).toBe(false);
    const files = byPath(change.files);
    expect(Object.keys(files).sort()).toEqual([
      "assets/logo.bin",
      "notes/todo.md",
      "src/doomed.ts",
      "src/keep.ts",
      "src/new-name.ts",
    ]);
    expect(files["src/keep.ts"]?.status).toBe("modified");
    expect(addedText(files["src/keep.ts"])).toBe("export const keep = 3;");
    expect(files["src/new-name.ts"]).toMatchObject({
      status: "renamed",
      oldPath: "src/old-name.ts",
    });
    expect(files["src/doomed.ts"]).toMatchObject({ status: "deleted", newPath: null });
    expect(files["assets/logo.bin"]).toMatchObject({ status: "added", binary: true });
    expect(files["notes/todo.md"]).toMatchObject({ status: "added", newMode: "100644" });
    expect(addedText(files["notes/todo.md"])).toBe("- write tests\n- ship");
    expect(change.diffText).not.toContain("main-only");
    expect(change.diffText).not.toContain("debug.log");
    // Several commits: the branch names the change; every commit message is in the description.
    expect(change.title).toBe("feature/login");
    expect(change.description).toContain("Rename and delete");
    expect(change.description).toContain("Binary, for the header.");
    expect(change.description).toContain("Includes uncommitted changes.");
    expect(change.notReviewed).toEqual([]);
  });

  it("prefers origin/HEAD's target over main", async () => {
    const repo = await repository();
    await repo.write("a.txt", "one\n");
    const first = repo.commit("First");
    await repo.write("a.txt", "two\n");
    const second = repo.commit("Second");
    // origin's default branch stops at the first commit; local main is at the second.
    repo.git("update-ref", "refs/remotes/origin/trunk", first);
    repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk");
    const viaOrigin = await collect(repo);
    expect(viaOrigin.baseSha).toBe(first);
    expect(addedText(byPath(viaOrigin.files)["a.txt"])).toBe("two");

    repo.git("symbolic-ref", "--delete", "refs/remotes/origin/HEAD");
    const viaMain = await collect(repo);
    expect(viaMain.baseSha).toBe(second);
    expect(viaMain.files).toEqual([]);
  });

  it("uses master when there is no main", async () => {
    const repo = await repository("master");
    await repo.write("a.txt", "one\n");
    const base = repo.commit("First");
    repo.git("checkout", "--quiet", "-b", "topic");
    await repo.write("a.txt", "two\n");
    repo.commit("Second");
    const change = await collect(repo);
    expect(change.baseSha).toBe(base);
    expect(change.title).toBe("Second");
    expect(change.description).toBe("");
  });

  it("refuses a one-branch repository without main or master, naming --base; the empty tree reviews it whole", async () => {
    const repo = await repository("dev");
    await repo.write("src/a.ts", "export const a = 1;\n");
    await repo.write("README.md", "# Hello\n");
    repo.commit("Start");
    await expect(collect(repo)).rejects.toThrow(
      /^no default branch to compare with \(.*\): pass --base REF/,
    );
    await expect(collect(repo)).rejects.toBeInstanceOf(LocalChangeError);
    // Asked for by name, git's empty tree reviews every file as added.
    const emptyTree = repo.git("hash-object", "-t", "tree", "--stdin").trim();
    const change = await collect(repo, { base: emptyTree });
    expect(change.baseSha).toBe(emptyTree);
    expect(change.files.map((file) => [file.path, file.status]).sort()).toEqual([
      ["README.md", "added"],
      ["src/a.ts", "added"],
    ]);
    expect(change.title).toBe("Start");
    // Another tree is no base.
    const tree = repo.git("rev-parse", "HEAD^{tree}").trim();
    await expect(collect(repo, { base: tree })).rejects.toThrow(`unknown ref: ${tree}`);
  });

  it("reviews a repository with no commit yet: staged and untracked files, from the empty tree", async () => {
    const repo = await repository();
    await repo.write("staged.ts", "export const staged = 1;\n");
    repo.git("add", "staged.ts");
    await repo.write("loose.ts", "export const loose = 1;\n");
    const change = await collect(repo);
    expect(change.files.map((file) => [file.path, file.status]).sort()).toEqual([
      ["loose.ts", "added"],
      ["staged.ts", "added"],
    ]);
    expect(change.title).toBe("Uncommitted changes");
    expect(change.baseSha).toBe(repo.git("hash-object", "-t", "tree", "--stdin").trim());
  });

  it("calls a change made only of working-tree edits 'Uncommitted changes'", async () => {
    const repo = await repository();
    await repo.write("a.txt", "one\n");
    repo.commit("First");
    await repo.write("a.txt", "one\ntwo\n");
    const change = await collect(repo);
    expect(change.title).toBe("Uncommitted changes");
    expect(addedText(byPath(change.files)["a.txt"])).toBe("two");
  });

  it("gives the same working tree the same headSha, and another one a different headSha", async () => {
    const repo = await repository();
    await repo.write("a.txt", "one\n");
    repo.commit("First");
    await repo.write("a.txt", "two\n");
    const first = await collect(repo);
    const again = await collect(repo);
    await repo.write("untracked.txt", "new\n");
    const changed = await collect(repo);
    expect(again.headSha).toBe(first.headSha);
    expect(changed.headSha).not.toBe(first.headSha);
    expect(first.headSha).toMatch(/^WORKTREE-[0-9a-f]{40}$/);
  });

  it("synthesises untracked files as git would: modes, symlinks, odd names, empty files, no final newline", async () => {
    const repo = await repository();
    await repo.write("base.txt", "base\n");
    repo.commit("First");
    await repo.write("bin/run.sh", "#!/bin/sh\necho hi\n", { executable: true });
    await repo.write('dir with space/naïve "q".txt', "no newline");
    await repo.write("empty.txt", "");
    await symlink("base.txt", join(repo.root, "link"));
    await repo.write("huge.txt", "x".repeat(5000));

    const change = await collect(repo, { maxUntrackedFileBytes: 4096 });
    const files = byPath(change.files);
    expect(files["bin/run.sh"]).toMatchObject({ status: "added", newMode: "100755", additions: 2 });
    const odd = files['dir with space/naïve "q".txt'];
    expect(odd?.hunks[0]?.lines).toEqual([
      { type: "add", content: "no newline", oldLine: null, newLine: 1, noNewlineAtEnd: true },
    ]);
    expect(files["empty.txt"]).toMatchObject({ status: "added", hunks: [], additions: 0 });
    expect(files.link).toMatchObject({ newMode: "120000" });
    expect(addedText(files.link)).toBe("base.txt");
    expect(files["huge.txt"]).toBeUndefined();
    expect(change.notReviewed).toEqual([{ path: "huge.txt", reason: "too-large" }]);
  });

  it("matches what `git add -N` + `git diff` would show for untracked files", async () => {
    const repo = await repository();
    await repo.write("base.txt", "base\n");
    repo.commit("First");
    await repo.write("src/new.ts", "export const a = 1;\n\nexport const b = 2;\n");
    await repo.write("tail.txt", "one\ntwo");
    const change = await collect(repo);
    // The reference: git's own rendering of intent-to-add files.
    repo.git("add", "-N", ".");
    const reference = await collect(repo);
    expect(change.files).toEqual(reference.files);
  });

  it("is not fooled by the user's git config", async () => {
    const { repo } = await featureBranch();
    await repo.write("src/long.ts", LONG_FILE.replace("line 6\n", "line six\n"));
    await repo.write("untracked.ts", "export const u = 1;\n");
    const plain = await collect(repo);
    repo.git("config", "diff.noprefix", "true");
    repo.git("config", "diff.mnemonicPrefix", "true");
    repo.git("config", "color.ui", "always");
    repo.git("config", "diff.external", "/bin/false");
    repo.git("config", "diff.relative", "true");
    repo.git("config", "diff.context", "0");
    repo.git("config", "diff.renames", "false");
    repo.git("config", "core.quotePath", "false");
    const configured = await collect(repo, { repoPath: join(repo.root, "src") });
    expect(configured.diffText).not.toContain("\x1b[");
    expect(configured.files).toEqual(plain.files);
    expect(configured.diffText).toBe(plain.diffText);
  });
});

describe("collectLocalChange: a head commit", () => {
  it("diffs base...head and exports exactly the head commit's tree", async () => {
    const { repo, mainSha } = await featureBranch();
    repo.git("checkout", "--quiet", "-b", "topic");
    await repo.write("src/topic.ts", "export const topic = 1;\n");
    await repo.write("src/nested/deep.ts", "export const deep = 1;\n", { executable: true });
    const head = repo.commit("Topic work\n\nWhy it matters.");
    // Uncommitted edits and untracked files are not part of the head commit.
    await repo.write("src/topic.ts", "export const topic = 'dirty';\n");
    await repo.write("scratch.txt", "not committed\n");

    const change = await collect(repo, { base: "feature/login", head: "topic" });
    expect(change.headSha).toBe(head);
    expect(change.baseSha).toBe(repo.git("rev-parse", "feature/login").trim());
    expect(change.files.map((file) => file.path).sort()).toEqual([
      "src/nested/deep.ts",
      "src/topic.ts",
    ]);
    expect(change.title).toBe("Topic work");
    expect(change.description).toBe("Why it matters.");

    const treeFiles = repo.git("ls-tree", "-r", "--name-only", head).trim().split("\n").sort();
    expect(await listFiles(change.workspaceDir)).toEqual(treeFiles);
    for (const path of treeFiles) {
      const committed = repo.git("show", `${head}:${path}`);
      expect(await readFile(join(change.workspaceDir, path), "utf8")).toBe(committed);
    }
    expect(change.workspaceDir.startsWith(await realpath(repo.root))).toBe(false);

    await change.cleanup();
    expect(existsSync(change.workspaceDir)).toBe(false);
    expect(mainSha).not.toBe(head);
  });

  it("uses the merge-base with an explicit base that moved on", async () => {
    const { repo, mainSha } = await featureBranch();
    repo.git("checkout", "--quiet", "main");
    await repo.write("src/main-only.ts", "export const mainOnly = 1;\n");
    repo.commit("Work on main");
    const change = await collect(repo, { base: "main", head: "feature/login" });
    expect(change.baseSha).toBe(mainSha);
    expect(change.files.map((file) => file.path)).not.toContain("src/main-only.ts");
    expect(change.title).toBe("feature/login");
  });

  it("titles several commits by a branch name, never by HEAD or a SHA", async () => {
    const { repo } = await featureBranch();
    const head = repo.git("rev-parse", "HEAD").trim();
    expect((await collect(repo, { head: "feature/login" })).title).toBe("feature/login");
    expect((await collect(repo, { head: "HEAD" })).title).toBe("2 commits");
    expect((await collect(repo, { head })).title).toBe("2 commits");
  });

  it("exports into the given temporary root", async () => {
    const { repo } = await featureBranch();
    const temporaryRoot = await mkdtemp(join(tmpdir(), "gadfly-cli-export-"));
    cleanups.push(() => rm(temporaryRoot, { recursive: true, force: true }));
    const change = await collect(repo, { head: "HEAD", temporaryRoot });
    expect(relative(temporaryRoot, change.workspaceDir).startsWith("..")).toBe(false);
    expect(await listFiles(change.workspaceDir)).toContain("assets/logo.bin");
  });
});

describe("collectLocalChange: clear errors", () => {
  it("names an unknown ref", async () => {
    const { repo } = await featureBranch();
    await expect(collect(repo, { base: "nope" })).rejects.toThrow(
      new LocalChangeError("unknown ref: nope"),
    );
    await expect(collect(repo, { head: "no/such/branch" })).rejects.toThrow(
      "unknown ref: no/such/branch",
    );
    await expect(collect(repo, { head: "--output=/tmp/x" })).rejects.toThrow(
      "unknown ref: --output=/tmp/x",
    );
  });

  it("says when the directory is not a git repository, or does not exist", async () => {
    const repo = await repository();
    const outside = join(repo.root, "..", "home");
    await expect(collect(repo, { repoPath: outside })).rejects.toThrow(
      new LocalChangeError(`not a git repository: ${outside}`),
    );
    const missing = join(repo.root, "missing");
    await expect(collect(repo, { repoPath: missing })).rejects.toThrow(
      `no such directory: ${missing}`,
    );
  });

  it("says when git itself is missing", async () => {
    const repo = await repository();
    const noGit: GitRunner = async (args) => {
      throw new GitCommandError(args, null, "", "ENOENT");
    };
    await expect(collect(repo, { git: noGit })).rejects.toThrow(
      new LocalChangeError("git is not installed or not on PATH"),
    );
  });
});

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}
