import { resolve } from "node:path";
import { ConfigError } from "../config/index.js";
import { StoreOpenError } from "../run/store/index.js";
import { serveGadfly } from "./serve-gadfly.js";

export interface WorkerCommandIo {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stderr: Pick<NodeJS.WritableStream, "write">;
  signals: Pick<NodeJS.Process, "once">;
}

/**
 * `gadfly worker [--config FILE]`: the worker role, exactly as
 * `GADFLY_ROLE=worker npm start` runs it, until SIGTERM or SIGINT. Returns
 * the exit code: 0 after a graceful stop, 2 when it cannot start (a bad
 * config, no GADFLY_DATABASE_URL, the database unreachable), in one line.
 */
export async function runWorkerCommand(
  command: { configPath: string | null },
  io: WorkerCommandIo,
): Promise<number> {
  const env = { ...io.env };
  if (command.configPath !== null) env.GADFLY_CONFIG = resolve(io.cwd, command.configPath);
  try {
    await serveGadfly({ env, cwd: io.cwd, role: "worker", signals: io.signals, stderr: io.stderr });
    return 0;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StoreOpenError) {
      io.stderr.write(`gadfly: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
