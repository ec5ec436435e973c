import { request } from "node:http";

// `node dist/healthcheck.js`: the image's HEALTHCHECK, in every role and in setup mode. A file of
// its own that loads nothing of Gadfly: it starts in a fraction of the time the app's modules
// would take, which matters for a check with a timeout on a busy host. Exits 0 when healthy.

interface ProbeHealthOptions {
  /** HOST as the app has it: every interface or unset is probed on loopback. */
  host: string | undefined;
  port: number;
  timeoutMs?: number;
}

const ANY = new Set(["", "0.0.0.0", "::", "[::]", "localhost"]);

/**
 * The image's health check, whatever the role: healthy when the process is ready (GET /readyz:
 * its store and queue answer; every role serves it) or, before the App exists, when setup mode
 * serves its page (GET /probot, where /readyz is not served). Anything else is unhealthy.
 */
async function probeHealth(options: ProbeHealthOptions): Promise<boolean> {
  const host = ANY.has(options.host?.trim() ?? "") ? "127.0.0.1" : (options.host ?? "").trim();
  const status = (path: string) => statusOf(host, options.port, path, options.timeoutMs ?? 4000);
  const ready = await status("/readyz");
  if (ready === 200) return true;
  return ready === 404 && (await status("/probot")) === 200;
}

/** The status an endpoint answers with, or 0 when nothing answers in time. */
function statusOf(host: string, port: number, path: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    const sent = request(
      { host: host.replace(/^\[|\]$/g, ""), port, path, method: "GET", timeout: timeoutMs },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    sent.on("timeout", () => sent.destroy());
    sent.on("error", () => resolve(0));
    sent.end();
  });
}

probeHealth({ host: process.env.HOST, port: Number(process.env.PORT ?? 3000) }).then(
  (healthy) => process.exit(healthy ? 0 : 1),
  () => process.exit(1),
);
