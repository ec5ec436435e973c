import { constants } from "node:fs";
import {
  access,
  chmod,
  chown,
  mkdir,
  mkdtemp,
  realpath,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { agentGitEnvironment } from "./agent-git-environment.js";
import type { AgentIsolation } from "./agent-isolation.js";
import { buildBwrapArgv, SANDBOX_HOME, SANDBOX_WORKSPACE } from "./build-bwrap-argv.js";
import { copyScrubbedWorkspace } from "./copy-scrubbed-workspace.js";
import { DEFAULT_REMOVED_PATHS } from "./default-removed-paths.js";
import { hostSystemMounts } from "./host-system-mounts.js";
import { killProcessesWithin } from "./kill-processes-within.js";
import { npmPackagePaths } from "./npm-package-paths.js";
import type { SharedScrubbedCopies } from "./shared-scrubbed-copies.js";

export interface AgentSandboxOptions {
  /** The pull request's snapshot (the agent's working directory before this module). */
  snapshot: string;
  /** The agent's argv, `{model}` already substituted. */
  command: readonly string[];
  /** The allow-listed environment; HOME, XDG_* and TMPDIR are replaced by this run's. */
  env: Readonly<Record<string, string>>;
  isolation: AgentIsolation;
  /** The provider's `removePaths`, beyond DEFAULT_REMOVED_PATHS. */
  removePaths?: readonly string[] | undefined;
  /** Where the run's directory is made; default the system temporary directory. */
  temporaryRoot?: string | undefined;
  /**
   * The round's shared copies: the run works in the round's one read-only copy of the
   * snapshot instead of a copy of its own (bound read-only at `bwrap`).
   */
  shared?: SharedScrubbedCopies | undefined;
  /**
   * The CLI writes into its working directory: the run gets a writable copy of its own even
   * when the round shares one (the provider's `writesWorkspace`).
   */
  writesWorkspace?: boolean | undefined;
}

/** One agent run's place to work: spawn `argv` in `cwd` with `env` (as `uid`/`gid`), then dispose. */
export interface AgentSandbox {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Set at the `user` level: the identity the agent is spawned as. */
  uid?: number;
  gid?: number;
  /** Relative paths the copy left out. */
  removed: readonly string[];
  /** Kills what still works in the run's directory, deletes the copy and HOME. Safe to call more than once. */
  dispose(): Promise<void>;
}

/**
 * Prepares one agent run: a fresh directory holding a scrubbed copy of the snapshot
 * (see copyScrubbedWorkspace and DEFAULT_REMOVED_PATHS) and an empty HOME with its XDG
 * directories and TMPDIR, owned by the agent's user at the `user` level, and the argv
 * wrapped in bubblewrap at the `bwrap` level. Nothing of it outlives dispose(); a
 * failure half-way removes what was made.
 */
export async function openAgentSandbox(options: AgentSandboxOptions): Promise<AgentSandbox> {
  const { isolation } = options;
  // Real: /proc shows the working directories it is compared with resolved.
  const runDirectory = await realpath(
    await mkdtemp(join(options.temporaryRoot ?? tmpdir(), "gadfly-agent-")),
  );
  const dispose = async () => {
    // A tool the agent left behind outside its process group (setsid) must not outlive it.
    await killProcessesWithin(runDirectory, { environment: `${RUN_MARK}=${runDirectory}` });
    await rm(runDirectory, { recursive: true, force: true });
  };
  try {
    const owner =
      isolation.level === "user" ? { uid: isolation.uid, gid: isolation.gid } : undefined;
    if (owner !== undefined) {
      // Stays ours: the agent's user may pass through to its workspace and HOME, not list
      // the directory or add to it (the shield below stays what we wrote).
      await chmod(runDirectory, 0o711);
    }
    const copy = await workspaceCopy(options, runDirectory, owner);
    const workspace = copy.path;
    const home = join(runDirectory, "home");
    const homeLayout = [".config", ".cache", ".local", ".local/share", "tmp"];
    await mkdir(home, { mode: 0o700 });
    for (const path of homeLayout) {
      await mkdir(join(home, path), { mode: 0o700 });
    }
    if (owner !== undefined) {
      for (const path of ["", ...homeLayout]) {
        await chown(join(home, path), owner.uid, owner.gid);
      }
    }
    const inside = isolation.level === "bwrap";
    const env = {
      ...withHome(options.env, inside ? SANDBOX_HOME : home),
      ...agentGitEnvironment(inside ? dirname(SANDBOX_WORKSPACE) : copy.parent),
      // Marks the run's processes: in a shared copy their working directory is no longer
      // the run's own, so dispose() finds a tool left behind by this instead.
      [RUN_MARK]: runDirectory,
    };
    if (inside) {
      const program = await locateProgram(options.command[0] ?? "", options.env.PATH);
      // Not found, a path outside the copy: inside, `./agent` would be /workspace/agent.
      const command = [program ?? resolve(options.command[0] ?? ""), ...options.command.slice(1)];
      return {
        argv: buildBwrapArgv({
          bwrap: isolation.bwrap,
          command,
          workspace,
          workspaceReadOnly: sharedCopiesFor(options) !== undefined,
          home,
          systemMounts: await hostSystemMounts(),
          readOnlyPaths: await installationPaths(program, options.command.slice(1)),
          uid: isolation.uid,
          gid: isolation.gid,
        }),
        cwd: workspace,
        env,
        removed: copy.removed,
        dispose,
      };
    }
    // Found here, not by the spawn: the agent starts in the pull request's copy, where
    // `./agent` or a relative PATH entry (`node_modules/.bin`, an empty one) would name the
    // author's file. Not found, it stays a path outside the copy, and the spawn says ENOENT.
    const name = options.command[0] ?? "";
    const program = (await findProgram(name, options.env.PATH)) ?? resolve(name);
    return {
      argv: [program, ...options.command.slice(1)],
      cwd: workspace,
      env,
      ...(owner === undefined ? {} : owner),
      removed: copy.removed,
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

const RUN_MARK = "GADFLY_AGENT_RUN";

/**
 * The run's workspace: the round's shared read-only copy, or a copy of its own in the run's
 * directory (given to the agent's user at the `user` level), with the empty `.env` shield
 * above it (see SharedScrubbedCopies).
 */
async function workspaceCopy(
  options: AgentSandboxOptions,
  runDirectory: string,
  owner: { uid: number; gid: number } | undefined,
): Promise<{ path: string; parent: string; removed: readonly string[] }> {
  const removePaths = [...DEFAULT_REMOVED_PATHS, ...(options.removePaths ?? [])];
  const shared = sharedCopiesFor(options);
  if (shared !== undefined) {
    return await shared.acquire({ snapshot: options.snapshot, removePaths });
  }
  // An empty, read-only `.env` above the workspace: Gemini CLI looks for the nearest one
  // upwards from its working directory, and would otherwise reach the world-writable
  // temporary directory, where anyone (an earlier agent run included) may have put one.
  await writeFile(join(runDirectory, ".env"), "", { mode: 0o444 });
  const path = join(runDirectory, "workspace");
  const copy = await copyScrubbedWorkspace({
    source: options.snapshot,
    target: path,
    removePaths,
    owner,
  });
  return { path, parent: runDirectory, removed: copy.removed };
}

/**
 * The shared copies where the kernel keeps every run from changing them: at `user` the agent
 * is another user (the copy is ours, read-only), at `bwrap` it is bound read-only. At `none`
 * the agent is us (or root, whom no mode bit stops): a shared copy would let one run rewrite
 * what the round's other reviewers read, so each run keeps a copy of its own.
 */
function sharedCopiesFor(options: AgentSandboxOptions): SharedScrubbedCopies | undefined {
  // A CLI that writes where it works cannot share: its copy is its own, writable, and
  // whatever it writes is gone with the run, never seen by another.
  if (options.writesWorkspace === true) return undefined;
  return options.isolation.level === "none" ? undefined : options.shared;
}

/** The environment with this run's HOME, XDG directories and TMPDIR, all inside HOME. */
function withHome(env: Readonly<Record<string, string>>, home: string): Record<string, string> {
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_CACHE_HOME: `${home}/.cache`,
    XDG_DATA_HOME: `${home}/.local/share`,
    TMPDIR: `${home}/tmp`,
  };
}

/** Where the spawn's execvp looks for a bare name when the environment has no PATH. */
const EXECVP_DEFAULT_PATH = "/usr/bin:/bin";

/** The real path of the program argv[0] names (searched in PATH), or null when none. */
async function locateProgram(name: string, path: string | undefined): Promise<string | null> {
  const found = await findProgram(name, path);
  return found === null ? null : await realpath(found);
}

/**
 * The absolute path of the executable argv[0] names, or null when none: a path with a `/`
 * is taken from our working directory, a bare name searched in the absolute PATH entries
 * only. Not resolved through links: a program may look at the name it was started by.
 */
async function findProgram(name: string, path: string | undefined): Promise<string | null> {
  if (name === "") {
    return null;
  }
  const candidates = name.includes("/")
    ? [resolve(name)]
    : (path ?? EXECVP_DEFAULT_PATH)
        .split(delimiter)
        .filter(isAbsolute)
        .map((directory) => join(directory, name));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not this one.
    }
  }
  return null;
}

/**
 * What the sandbox must show read-only for the CLI to start: the directory of its program,
 * or for an npm-installed CLI its package and the sibling platform packages its wrapper
 * starts a binary from (npmPackagePaths), the node that runs
 * us (scripts start with `#!/usr/bin/env node`), and each absolute file the command
 * names (`node /opt/agent/cli.mjs`). Only what the operator's config points at.
 */
async function installationPaths(
  program: string | null,
  args: readonly string[],
): Promise<string[]> {
  const paths: string[] = [];
  if (program !== null) {
    const npmPackage = await npmPackagePaths(program);
    paths.push(...(npmPackage.length > 0 ? npmPackage : [dirname(program)]));
  }
  paths.push(dirname(await realpath(process.execPath)));
  for (const argument of args) {
    if (isAbsolute(argument) && (await isFile(argument))) {
      paths.push(await realpath(argument));
    }
  }
  return paths;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
