import type { IncomingMessage, ServerResponse } from "node:http";
import { type Clock, systemClock } from "../time/index.js";

export interface OperationsHandlerOptions {
  /** Resolves when this process can do its work (the run store, and the queue, answer). */
  ready: () => Promise<void>;
  metrics: { render(): Promise<string> };
  /** A readiness check slower than this counts as not ready. */
  readyTimeoutMs?: number;
  clock?: Pick<Clock, "setTimeout" | "clearTimeout">;
  /** Told why readiness failed (for the log); the response itself says nothing of it. */
  onNotReady?: (error: unknown) => void;
  /**
   * Who may read /metrics (the dashboard's token, when one is set); absent: anyone who reaches
   * the port. The health endpoints stay open: an orchestrator probes them without a token.
   */
  metricsAllowed?: (request: IncomingMessage) => boolean;
}

/** Handles a request, or returns false to let the next handler have it (Probot's `addHandler` contract). */
export type OperationsHandler = (
  request: IncomingMessage,
  response: ServerResponse,
) => Promise<boolean>;

const PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * `GET /healthz` (the process answers), `GET /readyz` (it can reach what it
 * needs) and `GET /metrics` (Prometheus text, behind the dashboard's token when one is set) for
 * orchestrators, as a plain
 * node:http handler: Probot's server takes it with `addHandler`, and a
 * worker-only process serves it on its own.
 */
export function createOperationsHandler(options: OperationsHandlerOptions): OperationsHandler {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.readyTimeoutMs ?? 2000;
  return async (request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (!PATHS.has(path)) return false;
    if (request.method !== "GET" && request.method !== "HEAD") {
      send(response, 405, "method not allowed\n", { allow: "GET, HEAD" });
      return true;
    }
    if (path === "/healthz") {
      send(response, 200, "ok\n");
    } else if (path === "/readyz") {
      try {
        await withTimeout(options.ready(), timeoutMs, clock);
        send(response, 200, "ready\n");
      } catch (error) {
        options.onNotReady?.(error);
        send(response, 503, "not ready\n");
      }
    } else if (options.metricsAllowed !== undefined && !options.metricsAllowed(request)) {
      send(response, 401, "unauthorized: send Authorization: Bearer <GADFLY_DASHBOARD_TOKEN>\n", {
        "www-authenticate": 'Bearer realm="gadfly"',
      });
    } else {
      try {
        const text = await options.metrics.render();
        send(response, 200, text, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
      } catch {
        send(response, 500, "metrics unavailable\n");
      }
    }
    return true;
  };
}

function send(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    ...headers,
  });
  response.end(response.req.method === "HEAD" ? undefined : body);
}

function withTimeout(
  work: Promise<void>,
  timeoutMs: number,
  clock: Pick<Clock, "setTimeout" | "clearTimeout">,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = clock.setTimeout(
      () => reject(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    work.then(
      () => {
        clock.clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clock.clearTimeout(timer);
        reject(error);
      },
    );
  });
}
