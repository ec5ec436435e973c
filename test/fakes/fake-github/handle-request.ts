import type { IncomingMessage, ServerResponse } from "node:http";
import type { ErrorObject } from "ajv";
import { authenticate } from "./authenticate.js";
import type { FakeState } from "./fake-state.js";
import type { FaultScript } from "./fault-script.js";
import { githubError } from "./github-error.js";
import { matchRoute } from "./match-route.js";
import { isContentCreating, type RecordedRequest, type RequestLog } from "./request-log.js";
import type { RouteContext, RouteResponse } from "./route.js";
import { allRoutes } from "./routes/all-routes.js";
import { validateRequestBody } from "./validate-request-body.js";

export interface ValidationFailure {
  method: string;
  path: string;
  /** The OpenAPI path template the body was checked against. */
  operation: string;
  body: unknown;
  errors: ErrorObject[];
}

export interface RequestHandlerDependencies {
  state: FakeState;
  log: RequestLog;
  faults: FaultScript;
  validationFailures: ValidationFailure[];
  unknownRoutes: RecordedRequest[];
  strictAuth: boolean;
  sleep: (milliseconds: number) => Promise<void>;
  secondaryRateLimit: SecondaryRateLimit | undefined;
}

/**
 * GitHub's limit on content creation, enforced like GitHub: an installation that sent `limit`
 * content-creating requests within the last `windowMs` is refused the next (403, GitHub's
 * message, `retry-after` until the oldest leaves the window). GitHub's is 80 in 60 s.
 */
export interface SecondaryRateLimit {
  limit: number;
  windowMs: number;
}

export const SECONDARY_RATE_LIMIT_MESSAGE =
  "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID FAKE.";

const enterprisePrefix = "/api/v3";
const bodyMethods = new Set(["POST", "PATCH", "PUT"]);

/**
 * One HTTP exchange: record it, apply scripted latency, route it, check its
 * body against GitHub's OpenAPI description, let a scripted fault answer
 * instead if one is queued, and write the response.
 */
export async function handleRequest(
  dependencies: RequestHandlerDependencies,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { state, log, faults } = dependencies;
  const raw = await readBody(request);
  const method = (request.method ?? "GET").toUpperCase();
  const origin = `http://${request.headers.host ?? "127.0.0.1"}`;
  const url = new URL(request.url ?? "/", origin);
  // GitHub Enterprise serves GraphQL at /api/graphql, beside /api/v3 (Octokit's graphql derives
  // it from a baseUrl ending in /api/v3): recorded and routed as /graphql, like the REST paths.
  const enterpriseGraphql = url.pathname === "/api/graphql";
  const prefixed =
    enterpriseGraphql ||
    url.pathname === enterprisePrefix ||
    url.pathname.startsWith(`${enterprisePrefix}/`);
  const rawPath = enterpriseGraphql
    ? "/graphql"
    : prefixed
      ? url.pathname.slice(enterprisePrefix.length) || "/"
      : url.pathname;
  // Recorded and matched by tests decoded (`contents/src%2Fa.ts` → `contents/src/a.ts`);
  // routed raw, so an encoded slash stays inside its parameter.
  const path = safeDecode(rawPath);
  const identity = authenticate(request.headers, state, dependencies.strictAuth);
  const parsed = parseJson(raw);
  const recorded = log.record(
    {
      method,
      path,
      enterprisePrefix: prefixed,
      query: Object.fromEntries(url.searchParams),
      auth: identity.kind,
      installationId: identity.kind === "installation" ? identity.installationId : undefined,
      body: parsed.ok ? parsed.value : raw.toString("utf8"),
      at: state.now(),
    },
    request.headers,
  );

  const delay = faults.latency(method, path);
  if (delay > 0) await dependencies.sleep(delay);

  let answer: RouteResponse;
  const matched = matchRoute(allRoutes, method, rawPath);
  if (!parsed.ok) {
    answer = githubError(400, "Problems parsing JSON");
  } else if (matched === undefined) {
    dependencies.unknownRoutes.push(recorded);
    answer = githubError(404, "Not Found");
  } else {
    const body = parsed.value;
    const checked =
      matched.route.validateBody && bodyMethods.has(method)
        ? validateRequestBody(method, matched.route.path, body ?? {})
        : { valid: true, errors: [] };
    // An invalid body is the app's bug: it is answered 422 and leaves scripted faults queued.
    const fault = checked.valid ? faults.take(method, path) : undefined;
    const limited = checked.valid ? overSecondaryLimit(dependencies, recorded) : undefined;
    if (!checked.valid) {
      dependencies.validationFailures.push({
        method,
        path,
        operation: matched.route.path,
        body,
        errors: checked.errors,
      });
      answer = githubError(
        422,
        `Invalid request.\n\n${checked.errors.map((error) => `${error.instancePath || "body"} ${error.message ?? "is invalid"}`).join("\n")}`,
      );
    } else if (fault !== undefined && !fault.afterDoing) {
      recorded.faulted = true;
      answer = { status: fault.status, json: fault.body, headers: fault.headers };
    } else if (limited !== undefined) {
      recorded.rateLimited = true;
      answer = limited;
    } else {
      const context: RouteContext = {
        state,
        method,
        path: rawPath,
        params: matched.params,
        query: url.searchParams,
        body,
        headers: request.headers,
        identity,
        apiBase: prefixed ? `${origin}${enterprisePrefix}` : origin,
        origin,
      };
      try {
        answer = await matched.route.handle(context);
      } catch (error) {
        answer = githubError(500, `Fake GitHub failed: ${(error as Error).message}`);
      }
      if (fault?.afterDoing === true) {
        recorded.faulted = true;
        answer = { status: fault.status, json: fault.body, headers: fault.headers };
      }
    }
  }
  recorded.status = answer.status;
  recorded.response = answer.json;
  writeResponse(response, answer, recorded.sequence);
}

/** GitHub's answer when this request takes its installation over the limit, else undefined. */
function overSecondaryLimit(
  dependencies: RequestHandlerDependencies,
  recorded: RecordedRequest,
): RouteResponse | undefined {
  const rule = dependencies.secondaryRateLimit;
  if (rule === undefined || !isContentCreating(recorded)) return undefined;
  const now = recorded.at.getTime();
  const times = dependencies.log.contentCreatingTimes(recorded, now - rule.windowMs);
  if (times.length < rule.limit) return undefined;
  const oldest = Math.min(...times);
  return {
    status: 403,
    headers: {
      "retry-after": String(Math.max(1, Math.ceil((oldest + rule.windowMs - now) / 1000))),
    },
    json: {
      message: SECONDARY_RATE_LIMIT_MESSAGE,
      documentation_url:
        "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
      status: "403",
    },
  };
}

function writeResponse(response: ServerResponse, answer: RouteResponse, sequence: number): void {
  const headers: Record<string, string> = {
    "x-github-media-type": "github.v3; format=json",
    "x-github-request-id": `FAKE:${sequence}`,
    ...answer.headers,
  };
  let payload: Buffer | undefined;
  if (answer.json !== undefined) {
    payload = Buffer.from(JSON.stringify(answer.json), "utf8");
    headers["content-type"] ??= "application/json; charset=utf-8";
  } else if (answer.text !== undefined) {
    payload = Buffer.from(answer.text, "utf8");
    headers["content-type"] ??= "text/plain; charset=utf-8";
  } else if (answer.bytes !== undefined) {
    payload = answer.bytes;
  }
  headers["content-length"] = String(payload?.length ?? 0);
  response.writeHead(answer.status, headers);
  response.end(payload);
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function parseJson(raw: Buffer): { ok: true; value: unknown } | { ok: false } {
  if (raw.length === 0) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw.toString("utf8")) };
  } catch {
    return { ok: false };
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
