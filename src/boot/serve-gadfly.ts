import { type StartGadflyOptions, startGadfly } from "./start-gadfly.js";

export interface ServeGadflyOptions extends StartGadflyOptions {
  /** Where SIGTERM and SIGINT come from (the process). */
  signals: Pick<NodeJS.Process, "once">;
  stderr: Pick<NodeJS.WritableStream, "write">;
}

/**
 * Starts Gadfly and runs it until SIGTERM or SIGINT, then stops it
 * gracefully; resolves once everything is closed. Startup errors reject.
 */
export async function serveGadfly(options: ServeGadflyOptions): Promise<void> {
  const gadfly = await startGadfly(options);
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      options.stderr.write(
        `gadfly: ${signal}: shutting down; rounds in flight resume ${
          gadfly.role === "all" ? "on the next start" : "on another worker"
        }\n`,
      );
      gadfly.stop().then(resolve, resolve);
    };
    options.signals.once("SIGTERM", () => stop("SIGTERM"));
    options.signals.once("SIGINT", () => stop("SIGINT"));
  });
}
