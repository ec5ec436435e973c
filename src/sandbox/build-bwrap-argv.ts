import type { SystemMount } from "./host-system-mounts.js";

/** Where the workspace copy appears inside the sandbox, whatever its path on the host. */
export const SANDBOX_WORKSPACE = "/workspace";
/** Where the run's fresh HOME appears inside the sandbox. */
export const SANDBOX_HOME = "/home/agent";

export interface BwrapArgvOptions {
  /** The bubblewrap executable. */
  bwrap: string;
  /** The agent's argv, its program an absolute path visible inside. */
  command: readonly string[];
  /** Host paths of this run's workspace copy and HOME, bound read-write. */
  workspace: string;
  /** Bind the workspace read-only (the round's shared copy, which other runs see too). */
  workspaceReadOnly?: boolean | undefined;
  home: string;
  /** Binaries, libraries and the few /etc files (see hostSystemMounts). */
  systemMounts: readonly SystemMount[];
  /** More host paths shown read-only at the same place: the CLI's own installation. */
  readOnlyPaths: readonly string[];
  /** Who the agent is inside the sandbox's user namespace (mapped to our own uid outside). */
  uid: number;
  gid: number;
}

/**
 * The bubblewrap command line for one agent run. Inside, the agent sees the system
 * read-only, its workspace at /workspace (its cwd), a private HOME and /tmp, its own
 * PIDs only (a fresh /proc: no other process's environment), no capabilities, and
 * nothing else of the host — not the data directory, not other workspaces, not
 * Gadfly's checkout. The network is kept: the CLI needs its API.
 */
export function buildBwrapArgv(options: BwrapArgvOptions): string[] {
  const argv = [
    options.bwrap,
    // The sandbox dies with us, and cannot push keystrokes into our terminal (TIOCSTI).
    "--die-with-parent",
    "--new-session",
    // A user namespace of its own: namespaced capabilities cannot mount a host device
    // or touch anything outside, and a second user namespace cannot be made inside.
    "--unshare-user",
    "--disable-userns",
    "--uid",
    String(options.uid),
    "--gid",
    String(options.gid),
    "--cap-drop",
    "ALL",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
  ];
  const shown: string[] = [];
  for (const mount of options.systemMounts) {
    if (mount.kind === "symlink") {
      argv.push("--symlink", mount.target, mount.path);
    } else {
      argv.push("--ro-bind", mount.path, mount.path);
      shown.push(mount.path);
    }
  }
  argv.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp");
  argv.push(options.workspaceReadOnly === true ? "--ro-bind" : "--bind", options.workspace);
  argv.push(SANDBOX_WORKSPACE, "--bind", options.home, SANDBOX_HOME);
  for (const path of options.readOnlyPaths) {
    // Already visible through a system mount: a second bind would only shadow it.
    if (!shown.some((parent) => path === parent || path.startsWith(`${parent}/`))) {
      argv.push("--ro-bind", path, path);
      shown.push(path);
    }
  }
  argv.push("--chdir", SANDBOX_WORKSPACE, "--", ...options.command);
  return argv;
}
