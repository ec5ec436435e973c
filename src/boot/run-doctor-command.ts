import { resolve } from "node:path";
import { loadAppConfig } from "../config/index.js";
import {
  formatDoctorJson,
  formatDoctorTable,
  redactDoctorReport,
  runDoctor,
} from "../doctor/index.js";
import { createNodeFetch } from "../http/index.js";
import { createRedactor } from "../llm/index.js";
import { collectSecrets } from "../run/index.js";
import { readAppPrivateKey } from "./read-app-private-key.js";
import { readDotEnv } from "./read-dot-env.js";

export interface DoctorCommandIo {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: Pick<NodeJS.WritableStream, "write">;
}

/**
 * `gadfly doctor [--config FILE] [--format text|json]`: the checks of everything a first
 * round needs, on what `npm start` here would use (the environment with `.env` over it,
 * GADFLY_CONFIG or `gadfly.config.yml`, the private key as Probot finds it). Returns 0
 * when no check failed, else 1. Nothing printed holds a secret the process knows.
 */
export async function runDoctorCommand(
  command: { configPath: string | null; format: "text" | "json"; timeoutMs?: number },
  io: DoctorCommandIo,
): Promise<number> {
  const env = readDotEnv(io.env, io.cwd);
  const configPath = resolve(
    io.cwd,
    command.configPath ?? env.GADFLY_CONFIG ?? "gadfly.config.yml",
  );
  const privateKey = readAppPrivateKey(env, io.cwd);
  // The fetch the served app sends with (src/http), so the checks reach GitHub and the
  // providers the way its rounds will.
  const fetch = createNodeFetch();
  const report = await runDoctor({
    env,
    cwd: io.cwd,
    configPath,
    privateKey,
    receivesWebhooks: (env.GADFLY_ROLE ?? "").trim() !== "worker",
    runsRounds: (env.GADFLY_ROLE ?? "").trim() !== "web",
    fetch,
    ...(command.timeoutMs === undefined ? {} : { timeoutMs: command.timeoutMs }),
  }).finally(() => fetch.close());
  // The keys the config names are secrets too, when the config can be read at all.
  const providers = await loadAppConfig({ GADFLY_CONFIG: configPath }, io.cwd).then(
    (config) => config.providers,
    () => [],
  );
  const redact = createRedactor(collectSecrets({ env, providers, privateKey }));
  const shown = redactDoctorReport(report, redact);
  io.stdout.write(command.format === "json" ? formatDoctorJson(shown) : formatDoctorTable(shown));
  return report.ok ? 0 : 1;
}
