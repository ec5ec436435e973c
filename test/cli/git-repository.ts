import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A temporary git repository isolated from the host's git config, driven by the test. */
export interface GitRepository {
  root: string;
  /** The environment to pass to collectLocalChange: no system or user config leaks in. */
  env: Record<string, string | undefined>;
  git(...args: string[]): string;
  write(path: string, content: string | Buffer, options?: { executable?: boolean }): Promise<void>;
  commit(message: string): string;
  remove(): Promise<void>;
}

let dateCounter = 0;

export async function createGitRepository(initialBranch = "main"): Promise<GitRepository> {
  const parent = await realpath(await mkdtemp(join(tmpdir(), "gadfly-cli-git-")));
  const root = join(parent, "repo");
  const home = join(parent, "home");
  await mkdir(root);
  await mkdir(home);
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: join(home, ".gitconfig"),
    // Never discover a repository above the temporary directory.
    GIT_CEILING_DIRECTORIES: parent,
    GIT_AUTHOR_NAME: "Test Author",
    GIT_AUTHOR_EMAIL: "author@example.com",
    GIT_COMMITTER_NAME: "Test Author",
    GIT_COMMITTER_EMAIL: "author@example.com",
  };
  const git = (...args: string[]): string => {
    dateCounter++;
    const date = `2026-01-01T00:00:${String(dateCounter % 60).padStart(2, "0")}Z`;
    return execFileSync("git", args, {
      cwd: root,
      env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      encoding: "utf8",
    });
  };
  git("init", "--quiet", `--initial-branch=${initialBranch}`);
  git("config", "user.name", "Test Author");
  git("config", "user.email", "author@example.com");
  git("config", "commit.gpgsign", "false");
  return {
    root,
    env,
    git,
    async write(path, content, options = {}) {
      const absolute = join(root, path);
      await mkdir(dirname(absolute), { recursive: true });
      await writeFile(absolute, content);
      if (options.executable === true) await chmod(absolute, 0o755);
    },
    commit(message) {
      git("add", "--all");
      git("commit", "--quiet", "--allow-empty", "-m", message);
      return git("rev-parse", "HEAD").trim();
    },
    remove: () => rm(parent, { recursive: true, force: true }),
  };
}
