import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { SandboxConfig } from "../../src/config/schema.js";
import { detectIsolation, type ProbeResult } from "../../src/sandbox/index.js";

const works = async (): Promise<ProbeResult> => ({ ok: true });
const fails = async (): Promise<ProbeResult> => ({
  ok: false,
  problem: "bwrap: No permissions to create new namespace",
});

function config(isolation: "auto" | "bwrap" | "user" | "none") {
  return SandboxConfig.parse({ isolation, uid: 4242, gid: 4343 });
}

describe("detectIsolation", () => {
  it("tries bubblewrap for real, with the argv an agent run would get", async () => {
    const probed: (readonly string[])[] = [];
    const isolation = await detectIsolation(config("auto"), {
      bwrap: "/opt/bwrap",
      runProbe: async (argv) => {
        probed.push(argv);
        return { ok: true };
      },
      getuid: () => 1000,
    });
    expect(isolation).toEqual({
      level: "bwrap",
      uid: 4242,
      gid: 4343,
      bwrap: "/opt/bwrap",
      weakerBecause: null,
    });
    expect(probed).toHaveLength(1);
    const argv = probed[0] ?? [];
    expect(argv[0]).toBe("/opt/bwrap");
    expect(argv).toEqual(expect.arrayContaining(["--unshare-pid", "--cap-drop", "ALL"]));
    expect(argv.slice(argv.indexOf("--") + 1)).toEqual(["/bin/sh", "-c", "exit 0"]);
  });

  it("falls back to a dedicated user when bubblewrap fails and we are root, saying why", async () => {
    const isolation = await detectIsolation(config("auto"), { runProbe: fails, getuid: () => 0 });
    expect(isolation.level).toBe("user");
    expect(isolation.uid).toBe(4242);
    expect(isolation.weakerBecause).toBe(
      "bubblewrap does not work here (bwrap: No permissions to create new namespace)",
    );
  });

  it("falls back to none when bubblewrap fails and we are not root", async () => {
    const isolation = await detectIsolation(config("auto"), {
      runProbe: fails,
      getuid: () => 1000,
    });
    expect(isolation.level).toBe("none");
    expect(isolation.weakerBecause).toContain("and Gadfly does not run as root");
  });

  it("refuses to start when bwrap is named but does not work, naming sandbox.isolation", async () => {
    const error = await detectIsolation(config("bwrap"), {
      runProbe: fails,
      getuid: () => 0,
      configSource: "/etc/gadfly.yml",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      "/etc/gadfly.yml: sandbox.isolation: bwrap was asked for, but bubblewrap does not work here (bwrap: No permissions to create new namespace); install bubblewrap, allow user namespaces, or choose another level",
    );
  });

  it("refuses to start when user is named but we are not root", async () => {
    const error = await detectIsolation(config("user"), {
      runProbe: works,
      getuid: () => 1000,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((issue) => issue.path)).toEqual(["sandbox.isolation"]);
  });

  it("takes user without trying bubblewrap when user is named, and none when none is", async () => {
    let probes = 0;
    const runProbe = async (): Promise<ProbeResult> => {
      probes += 1;
      return { ok: true };
    };
    expect((await detectIsolation(config("user"), { runProbe, getuid: () => 0 })).level).toBe(
      "user",
    );
    expect((await detectIsolation(config("none"), { runProbe, getuid: () => 0 })).level).toBe(
      "none",
    );
    expect(probes).toBe(0);
  });

  it("says bubblewrap is not installed when the executable is missing (the real probe)", async () => {
    const isolation = await detectIsolation(config("auto"), {
      bwrap: "/nonexistent/bwrap",
      getuid: () => 1000,
    });
    expect(isolation.level).toBe("none");
    expect(isolation.weakerBecause).toContain("/nonexistent/bwrap is not installed");
  });
});
