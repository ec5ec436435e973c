import type { IncomingHttpHeaders } from "node:http";
import type { FakeState } from "./fake-state.js";
import type { UserRecord } from "./types.js";

export type Identity =
  /** `installationId` undefined: a token the fake did not issue, accepted when auth is lenient. */
  | { kind: "installation"; installationId: number | undefined; user: UserRecord }
  | { kind: "user"; user: UserRecord }
  | { kind: "jwt"; issuer: string | undefined }
  | { kind: "anonymous" }
  | { kind: "invalid"; message: string };

export interface RouteContext {
  state: FakeState;
  method: string;
  /** Path as sent (still URL-encoded), without the `/api/v3` prefix. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingHttpHeaders;
  identity: Identity;
  /** Origin plus `/api/v3` when the request used it: the base of `Link` URLs. */
  apiBase: string;
  origin: string;
}

export interface RouteResponse {
  status: number;
  json?: unknown;
  text?: string;
  bytes?: Buffer;
  headers?: Record<string, string>;
}

export interface Route {
  method: string;
  /** The OpenAPI description's path template, also used for matching. */
  path: string;
  /** Whether request bodies are checked against the OpenAPI description. */
  validateBody: boolean;
  handle(context: RouteContext): RouteResponse | Promise<RouteResponse>;
}
