import { createServer, type Server } from "node:http";
import type { OperationsHandler } from "./operations-handler.js";

export interface OperationsServerOptions {
  port: number;
  /** Defaults to all interfaces, as an orchestrator's probes come from outside the pod. */
  host?: string;
}

/**
 * Serves the operations endpoints alone, for a process without Probot's
 * server (a worker-only process): anything else is 404.
 */
export async function startOperationsServer(
  handler: OperationsHandler,
  options: OperationsServerOptions,
): Promise<Server> {
  const server = createServer((request, response) => {
    handler(request, response).then(
      (handled) => {
        if (!handled) response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      },
      () => {
        if (!response.headersSent) response.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}
