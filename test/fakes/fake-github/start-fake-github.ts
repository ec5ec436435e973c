import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { FakeGitHub } from "./fake-github.js";
import { FakeState } from "./fake-state.js";
import { FaultScript } from "./fault-script.js";
import {
  handleRequest,
  type SecondaryRateLimit,
  type ValidationFailure,
} from "./handle-request.js";
import { type RecordedRequest, RequestLog } from "./request-log.js";

export interface FakeGitHubOptions {
  /** The app's id (default 1); JWTs whose `iss` differs are refused. */
  appId?: number;
  /** The app's slug (default "gadfly"); its bot is `<slug>[bot]`. */
  appSlug?: string;
  /** Clock for timestamps, token expiry and the request log (default: wall clock). */
  now?: () => Date;
  /** Refuse tokens the fake did not issue (default false: any token acts as the app's bot). */
  strictAuth?: boolean;
  /** How scripted latency waits (default: a real timer). */
  sleep?: (milliseconds: number) => Promise<void>;
  /**
   * Refuse an installation's content-creating requests past `limit` in any `windowMs`, as
   * GitHub's secondary rate limit does (off by default; GitHub's is 80 in 60 s).
   */
  secondaryRateLimit?: SecondaryRateLimit;
}

/** Starts a fake GitHub REST API on 127.0.0.1, on a free port. */
export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const log = new RequestLog();
  const faults = new FaultScript();
  const validationFailures: ValidationFailure[] = [];
  const unknownRoutes: RecordedRequest[] = [];
  const urls = { api: "", html: "" };
  const state = new FakeState(
    { id: options.appId ?? 1, slug: options.appSlug ?? "gadfly" },
    urls,
    options.now ?? (() => new Date()),
  );
  const dependencies = {
    state,
    log,
    faults,
    validationFailures,
    unknownRoutes,
    strictAuth: options.strictAuth ?? false,
    sleep: options.sleep ?? ((milliseconds: number) => delay(milliseconds)),
    secondaryRateLimit: options.secondaryRateLimit,
  };
  const server = createServer((request, response) => {
    handleRequest(dependencies, request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ message: `Fake GitHub failed: ${String(error)}` }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  // The state was created before the port was known; its URLs are filled in now.
  urls.html = url;
  urls.api = `${url}/api/v3`;
  return new FakeGitHub(url, { server, state, log, faults, validationFailures, unknownRoutes });
}
