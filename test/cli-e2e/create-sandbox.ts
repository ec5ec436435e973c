import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A scratch directory for one test: `work` (the CLI's working directory) and a `home`, so the
 * child never sees the developer's git config, keys or home files.
 */
export interface Sandbox {
  root: string;
  work: string;
  /** The only environment the CLI gets, plus what a test adds. */
  env: Record<string, string>;
  remove(): Promise<void>;
}

export async function createSandbox(): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "gadfly-cli-e2e-")));
  const work = join(root, "work");
  const home = join(root, "home");
  await mkdir(work);
  await mkdir(home);
  return {
    root,
    work,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      GADFLY_FROM_SOURCE: "1",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: join(home, ".gitconfig"),
      // Never discover a repository above the sandbox (the checkout this test runs from).
      GIT_CEILING_DIRECTORIES: root,
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
