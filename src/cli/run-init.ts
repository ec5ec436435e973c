import { mkdir, open, rm } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { loadAppConfig } from "../config/index.js";
import { askProviders } from "./ask-providers.js";
import { chooseProviders } from "./choose-providers.js";
import type { InitCommandOptions } from "./cli-command.js";
import { starterConfig } from "./starter-config.js";
import { starterEnvExample } from "./starter-env-example.js";
import { STARTER_PROVIDERS, type StarterProvider } from "./starter-providers.js";
import { UsageError } from "./usage-error.js";

export interface InitIo {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Asked only when it is a terminal and --providers was not given. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/**
 * `gadfly init`: a commented starter config for the providers chosen (--providers, or
 * asked on a terminal) and, next to it, `.env.example` with every variable they and
 * Probot need. Never overwrites: when either file exists nothing is written. The config
 * is checked with the app's own loader before init says it is done.
 */
export async function runInit(options: InitCommandOptions, io: InitIo): Promise<number> {
  const configPath = resolve(io.cwd, options.configPath ?? "gadfly.config.yml");
  const envPath = join(dirname(configPath), ".env.example");
  let providers: StarterProvider[];
  if (options.providers !== null) {
    providers = chooseProviders(options.providers.join(","), STARTER_PROVIDERS);
  } else if (io.stdin?.isTTY === true) {
    providers = await askProviders(STARTER_PROVIDERS, { input: io.stdin, output: io.stderr });
  } else {
    throw new UsageError(
      `gadfly init: choose providers with --providers (${STARTER_PROVIDERS.map((provider) => provider.id).join(", ")})`,
    );
  }
  await mkdir(dirname(configPath), { recursive: true });
  const written: string[] = [];
  try {
    // `wx`: an existing file (or one created meanwhile) is never replaced.
    for (const [path, text] of [
      [configPath, starterConfig(providers)],
      [envPath, starterEnvExample(providers)],
    ] as const) {
      const file = await open(path, "wx", 0o644).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "EEXIST") {
          throw new UsageError(
            `${path} already exists: gadfly init never overwrites a file (move it away, or pass --config OTHER-FILE)`,
          );
        }
        throw error;
      });
      written.push(path);
      try {
        await file.writeFile(text);
      } finally {
        await file.close();
      }
    }
    // What we wrote must be what the app accepts.
    await loadAppConfig({ GADFLY_CONFIG: configPath }, io.cwd);
  } catch (error) {
    await Promise.all(written.map((path) => rm(path, { force: true })));
    throw error;
  }
  const shown = (path: string) => {
    const relativePath = relative(io.cwd, path);
    return relativePath.startsWith("..") ? path : relativePath;
  };
  io.stdout.write(
    [
      `wrote ${shown(configPath)} (${providers.map((provider) => provider.id).join(", ")}) and ${shown(envPath)}`,
      "next:",
      `  1. set the keys ${shown(envPath)} lists: in .env where npm start runs (setup mode writes the App's three there itself; never commit .env), or exported in your shell for gadfly review`,
      `  2. adjust the models in ${shown(configPath)}`,
      `  3. check everything: gadfly doctor${options.configPath === null ? "" : ` --config ${shown(configPath)}`}`,
      "",
    ].join("\n"),
  );
  return 0;
}
