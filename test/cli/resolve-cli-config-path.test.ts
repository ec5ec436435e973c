import { describe, expect, it } from "vitest";
import { resolveCliConfigPath } from "../../src/cli/resolve-cli-config-path.js";

const cwd = "/work/repo";

describe("resolveCliConfigPath", () => {
  it("takes --config, then GADFLY_CONFIG, then the user's config directory; never the tree", () => {
    const env = { HOME: "/home/me", XDG_CONFIG_HOME: "/xdg", GADFLY_CONFIG: "/etc/gadfly.yml" };
    expect(resolveCliConfigPath("mine.yml", env, cwd)).toEqual({
      path: "/work/repo/mine.yml",
      source: "--config",
    });
    expect(resolveCliConfigPath(null, env, cwd)).toEqual({
      path: "/etc/gadfly.yml",
      source: "GADFLY_CONFIG",
    });
    expect(resolveCliConfigPath(null, { ...env, GADFLY_CONFIG: " " }, cwd)).toEqual({
      path: "/xdg/gadfly/config.yml",
      source: "user config directory",
    });
    expect(resolveCliConfigPath(null, { HOME: "/home/me" }, cwd).path).toBe(
      "/home/me/.config/gadfly/config.yml",
    );
    // A relative XDG_CONFIG_HOME would point into the reviewed tree: ignored, as the XDG spec says.
    expect(resolveCliConfigPath(null, { HOME: "/home/me", XDG_CONFIG_HOME: "." }, cwd).path).toBe(
      "/home/me/.config/gadfly/config.yml",
    );
  });
});
