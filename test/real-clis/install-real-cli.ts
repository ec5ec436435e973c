import { spawnSync } from "node:child_process";
import { accessSync, chmodSync, constants, mkdirSync } from "node:fs";
import { arch, platform } from "node:os";
import { join } from "node:path";

/** Where real agent CLIs are installed, once: readable by the `user` level's uid. */
const CACHE = process.env.GADFLY_TEST_CLI_CACHE ?? "/var/tmp/gadfly-real-cli-cache";
const INSTALL_TIMEOUT_MS = 180_000;

/**
 * The native program of Claude Code `version`, installed from the npm registry into the cache
 * on first use (scripts off: the platform package's binary is run directly, as its wrapper
 * would). Null, with the reason, when it cannot be had here (no registry, another platform).
 */
export function installClaudeCode(version: string): { program: string } | { skip: string } {
  if (platform() !== "linux" || arch() !== "x64")
    return { skip: `no build for ${platform()}-${arch()} here` };
  const prefix = join(CACHE, `claude-code-${version}`);
  const program = join(prefix, "node_modules/@anthropic-ai/claude-code-linux-x64/claude");
  if (!executable(program)) {
    mkdirSync(prefix, { recursive: true });
    chmodSync(CACHE, 0o755);
    const install = spawnSync(
      "npm",
      [
        "install",
        "--prefix",
        prefix,
        `@anthropic-ai/claude-code@${version}`,
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
      ],
      { encoding: "utf8", timeout: INSTALL_TIMEOUT_MS },
    );
    if (install.status !== 0 || !executable(program)) {
      return {
        skip: `npm could not install @anthropic-ai/claude-code@${version}: ${(install.stderr ?? String(install.error)).trim().split("\n").at(-1)}`,
      };
    }
  }
  return { program };
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
