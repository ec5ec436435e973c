import { spawnSync } from "node:child_process";
import { accessSync, chmodSync, constants, mkdirSync } from "node:fs";
import { arch, homedir, platform } from "node:os";
import { join } from "node:path";

/**
 * Where real agent CLIs are installed, once: readable by the `user` level's uid, and in no
 * directory others may write (not /tmp, not /var/tmp): Gemini CLI ignores a settings file
 * below one, and the Gemini test keeps its system settings beside the CLI.
 */
export const REAL_CLI_CACHE =
  process.env.GADFLY_TEST_CLI_CACHE ??
  (process.getuid?.() === 0
    ? "/var/cache/gadfly-real-cli"
    : join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "gadfly-real-cli"));
const CACHE = REAL_CLI_CACHE;
const INSTALL_TIMEOUT_MS = 180_000;

export type RealCliInstall = { program: string } | { skip: string };

/**
 * The native program of Claude Code `version`, installed from the npm registry into the cache
 * on first use (scripts off: the platform package's binary is run directly, as its wrapper
 * would). Null, with the reason, when it cannot be had here (no registry, another platform).
 */
export function installClaudeCode(version: string): RealCliInstall {
  return installFromNpm(
    "claude-code",
    `@anthropic-ai/claude-code@${version}`,
    "@anthropic-ai/claude-code-linux-x64/claude",
  );
}

/**
 * Codex CLI `version` as `npm install -g @openai/codex` leaves it: the Node wrapper
 * (bin/codex.js), which starts its native binary from the platform package beside it
 * (`@openai/codex-linux-x64`, an optional dependency): the layout the sandbox must show.
 */
export function installCodex(version: string): RealCliInstall {
  return installFromNpm("codex", `@openai/codex@${version}`, "@openai/codex/bin/codex.js", [
    `@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex`,
  ]);
}

/** Gemini CLI `version`: one bundled script (bundle/gemini.js), run by node. */
export function installGeminiCli(version: string): RealCliInstall {
  return installFromNpm(
    "gemini-cli",
    `@google/gemini-cli@${version}`,
    "@google/gemini-cli/bundle/gemini.js",
  );
}

/**
 * `spec` installed once into `<cache>/<name>-<version>` (scripts off), and the path of its
 * `program` under node_modules; the reason when it cannot be had here (no registry, another
 * platform, or an install that left out a file the CLI needs, such as a platform package).
 */
function installFromNpm(
  name: string,
  spec: string,
  program: string,
  alsoNeeded: readonly string[] = [],
): RealCliInstall {
  if (platform() !== "linux" || arch() !== "x64")
    return { skip: `no build for ${platform()}-${arch()} here` };
  const prefix = join(CACHE, `${name}-${spec.slice(spec.lastIndexOf("@") + 1)}`);
  const modules = join(prefix, "node_modules");
  const needed = [program, ...alsoNeeded].map((path) => join(modules, path));
  if (!needed.every(executable)) {
    mkdirSync(prefix, { recursive: true });
    chmodSync(CACHE, 0o755);
    const install = spawnSync(
      "npm",
      ["install", "--prefix", prefix, spec, "--no-audit", "--no-fund", "--ignore-scripts"],
      { encoding: "utf8", timeout: INSTALL_TIMEOUT_MS },
    );
    const missing = needed.filter((path) => !executable(path));
    if (install.status !== 0 || missing.length > 0) {
      const why =
        install.status !== 0
          ? (install.stderr ?? String(install.error)).trim().split("\n").at(-1)
          : `it left out ${missing.join(", ")}`;
      return { skip: `npm could not install ${spec}: ${why}` };
    }
  }
  return { program: join(modules, program) };
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
