import { describe, expect, it } from "vitest";
import { buildBwrapArgv, SANDBOX_HOME, SANDBOX_WORKSPACE } from "../../src/sandbox/index.js";

const argv = buildBwrapArgv({
  bwrap: "bwrap",
  command: ["/usr/bin/node", "/opt/agent/cli.mjs", "-p"],
  workspace: "/tmp/gadfly-agent-x/workspace",
  home: "/tmp/gadfly-agent-x/home",
  systemMounts: [
    { kind: "read-only", path: "/usr" },
    { kind: "symlink", path: "/bin", target: "usr/bin" },
    { kind: "read-only", path: "/etc/resolv.conf" },
  ],
  readOnlyPaths: ["/usr/bin", "/opt/agent/cli.mjs", "/root/.local/share/claude"],
  uid: 65534,
  gid: 65534,
});

/** The value following each occurrence of a flag that takes arguments. */
function pairs(flag: string, width: number): string[][] {
  const found: string[][] = [];
  argv.forEach((value, index) => {
    if (value === flag) found.push(argv.slice(index + 1, index + 1 + width));
  });
  return found;
}

describe("buildBwrapArgv", () => {
  it("runs the command last, after --, in the workspace at its fixed path", () => {
    expect(argv.slice(argv.indexOf("--"))).toEqual([
      "--",
      "/usr/bin/node",
      "/opt/agent/cli.mjs",
      "-p",
    ]);
    expect(pairs("--chdir", 1)).toEqual([[SANDBOX_WORKSPACE]]);
  });

  it("unshares everything but the network, drops every capability and dies with us", () => {
    for (const flag of [
      "--die-with-parent",
      "--new-session",
      "--unshare-user",
      "--disable-userns",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
    ]) {
      expect(argv).toContain(flag);
    }
    expect(pairs("--cap-drop", 1)).toEqual([["ALL"]]);
    expect(argv).not.toContain("--unshare-net");
    expect(argv).not.toContain("--unshare-all");
    expect(argv).not.toContain("--share-net");
  });

  it("gives a fresh /proc, /dev and /tmp, and binds only the workspace and HOME writable", () => {
    expect(pairs("--proc", 1)).toEqual([["/proc"]]);
    expect(pairs("--dev", 1)).toEqual([["/dev"]]);
    expect(pairs("--tmpfs", 1)).toEqual([["/tmp"]]);
    expect(pairs("--bind", 2)).toEqual([
      ["/tmp/gadfly-agent-x/workspace", SANDBOX_WORKSPACE],
      ["/tmp/gadfly-agent-x/home", SANDBOX_HOME],
    ]);
  });

  it("shows the system and the CLI's installation read-only, each once", () => {
    expect(pairs("--ro-bind", 2)).toEqual([
      ["/usr", "/usr"],
      ["/etc/resolv.conf", "/etc/resolv.conf"],
      ["/opt/agent/cli.mjs", "/opt/agent/cli.mjs"],
      ["/root/.local/share/claude", "/root/.local/share/claude"],
    ]);
    expect(pairs("--symlink", 2)).toEqual([["usr/bin", "/bin"]]);
  });

  it("never shows the data directory or the host's HOME, and names the agent's identity", () => {
    expect(argv.some((value) => value.includes(".gadfly"))).toBe(false);
    expect(argv).not.toContain("/root");
    expect(pairs("--uid", 1)).toEqual([["65534"]]);
    expect(pairs("--gid", 1)).toEqual([["65534"]]);
  });
});
