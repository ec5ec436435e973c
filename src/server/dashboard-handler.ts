import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  DASHBOARD_SORT_KEYS,
  type DashboardSortKey,
  renderDashboard,
  renderDashboardLogin,
} from "../render/index.js";
import {
  parseRepository,
  parseWindow,
  type RepositoryName,
  type Scoreboard,
} from "../scoreboard/index.js";
import { DASHBOARD_COOKIE, dashboardAuth } from "./dashboard-auth.js";
import type { OperationsHandler } from "./operations-handler.js";

export const DASHBOARD_PATH = "/gadfly/dashboard";

export interface DashboardHandlerOptions {
  /** GADFLY_DASHBOARD_TOKEN. */
  token: string;
  /** The scoreboard of a window; the handler never sees the store. */
  scoreboard(query: { windowMs: number; repository?: RepositoryName }): Promise<Scoreboard>;
  /** Where pull requests are linked, e.g. `https://github.com`. */
  webUrl: string;
  /** Told why a page could not be built (for the log); the response says nothing of it. */
  onError?: (error: unknown) => void;
}

const MAX_FORM_BYTES = 4096;
const DEFAULT_WINDOW = "30d";
/** The script runs by its nonce; nothing else loads, no form posts elsewhere, no framing. */
const csp = (nonce: string) =>
  `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; img-src data:; ` +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * `GET /gadfly/dashboard` (the scoreboard, `?since=30d&repo=owner/name&sort=…&dir=…`) and
 * `POST /gadfly/dashboard` (the sign-in form: sets an HttpOnly, SameSite=Strict cookie), for
 * Probot's server (`addHandler`). Without the token or its cookie: 401 and the form.
 */
export function createDashboardHandler(options: DashboardHandlerOptions): OperationsHandler {
  const auth = dashboardAuth(options.token);
  return async (request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== DASHBOARD_PATH) return false;
    const secure = isHttps(request);
    if (request.method === "POST") {
      const token = await readFormToken(request);
      if (token === null) {
        send(response, 413, "text/plain; charset=utf-8", "form too large\n");
      } else if (!auth.isToken(token)) {
        page(response, 401, renderDashboardLogin({ action: DASHBOARD_PATH, failed: true }));
      } else {
        response.writeHead(303, {
          location: `${DASHBOARD_PATH}${url.search}`,
          "set-cookie": `${DASHBOARD_COOKIE}=${auth.sessionValue()}; Path=${DASHBOARD_PATH}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`,
          "cache-control": "no-store",
        });
        response.end();
      }
      return true;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      send(response, 405, "text/plain; charset=utf-8", "method not allowed\n", {
        allow: "GET, HEAD, POST",
      });
      return true;
    }
    if (!auth.allows(request)) {
      page(
        response,
        401,
        renderDashboardLogin({ action: `${DASHBOARD_PATH}${url.search}`, failed: false }),
        {
          "www-authenticate": 'Bearer realm="gadfly dashboard"',
        },
      );
      return true;
    }
    const query = readQuery(url.searchParams);
    if (typeof query === "string") {
      send(response, 400, "text/plain; charset=utf-8", `${query}\n`);
      return true;
    }
    try {
      const board = await options.scoreboard({
        windowMs: query.windowMs,
        ...(query.repository === null ? {} : { repository: query.repository }),
      });
      const nonce = randomBytes(16).toString("base64");
      const html = renderDashboard({
        board,
        since: query.since,
        sort: query.sort,
        descending: query.descending,
        webUrl: options.webUrl,
        nonce,
        path: DASHBOARD_PATH,
      });
      page(response, 200, html, { "content-security-policy": csp(nonce) });
    } catch (error) {
      options.onError?.(error);
      send(response, 500, "text/plain; charset=utf-8", "the scoreboard could not be read\n");
    }
    return true;
  };
}

interface DashboardQuery {
  since: string;
  windowMs: number;
  repository: RepositoryName | null;
  sort: DashboardSortKey;
  descending: boolean;
}

/** The query, or what is wrong with it: only known values reach the store or the page. */
function readQuery(params: URLSearchParams): DashboardQuery | string {
  const since = params.get("since") ?? DEFAULT_WINDOW;
  const windowMs = parseWindow(since);
  if (windowMs === null) return "since must be hours, days or weeks such as 12h, 30d or 2w";
  const repo = params.get("repo");
  const repository = repo === null || repo === "" ? null : parseRepository(repo);
  if (repo !== null && repo !== "" && repository === null) return "repo must be owner/name";
  const sortParam = params.get("sort") ?? "findings";
  const sort = DASHBOARD_SORT_KEYS.find((key) => key === sortParam);
  if (sort === undefined) return `sort must be one of ${DASHBOARD_SORT_KEYS.join(", ")}`;
  return {
    since: since.trim(),
    windowMs,
    repository,
    sort,
    descending: params.get("dir") !== "asc",
  };
}

/** The sign-in form's `token` field; null when the body is over the limit. */
async function readFormToken(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8")).get("token") ?? "";
}

/** Behind a TLS-terminating proxy the request is plain HTTP: the proxy's header says so. */
function isHttps(request: IncomingMessage): boolean {
  const socket = request.socket as { encrypted?: boolean };
  return socket.encrypted === true || request.headers["x-forwarded-proto"] === "https";
}

function page(
  response: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  send(response, status, "text/html; charset=utf-8", html, {
    "content-security-policy": csp("none"),
    ...headers,
  });
}

function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    ...headers,
  });
  response.end(response.req.method === "HEAD" ? undefined : body);
}
