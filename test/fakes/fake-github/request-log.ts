import { matchesPathPattern, type PathPattern } from "./path-pattern.js";

export type AuthKind = "installation" | "jwt" | "user" | "anonymous" | "invalid";

export interface RecordedRequest {
  sequence: number;
  method: string;
  /** Without the `/api/v3` prefix and the query. */
  path: string;
  /** Whether the request came in under `/api/v3` (GitHub Enterprise layout). */
  enterprisePrefix: boolean;
  query: Record<string, string>;
  /** A few request headers; credentials are never recorded, only `auth`. */
  headers: Record<string, string>;
  auth: AuthKind;
  /** The installation an installation token acts for (undefined for others). */
  installationId: number | undefined;
  body: unknown;
  /** 0 until answered. */
  status: number;
  /** The JSON the fake answered with, if any. */
  response: unknown;
  /** Answered by a scripted fault rather than the fake's logic. */
  faulted: boolean;
  /** Refused by the fake's own secondary rate limit (`secondaryRateLimit` option). */
  rateLimited: boolean;
  at: Date;
}

export interface RequestFilter {
  method?: string;
  path?: PathPattern;
}

export interface MinuteCount {
  /** ISO timestamp of the minute's start. */
  minute: string;
  count: number;
}

const recordedHeaders = ["accept", "content-type", "user-agent", "x-github-api-version"];
const contentCreatingMethods = new Set(["POST", "PATCH", "PUT", "DELETE"]);

export class RequestLog {
  readonly #entries: RecordedRequest[] = [];

  record(
    entry: Omit<
      RecordedRequest,
      "sequence" | "status" | "response" | "faulted" | "rateLimited" | "headers"
    >,
    headers: Record<string, string | string[] | undefined>,
  ): RecordedRequest {
    const kept: Record<string, string> = {};
    for (const name of recordedHeaders) {
      const value = headers[name];
      if (typeof value === "string") kept[name] = value;
    }
    const recorded: RecordedRequest = {
      ...entry,
      sequence: this.#entries.length + 1,
      headers: kept,
      status: 0,
      response: undefined,
      faulted: false,
      rateLimited: false,
    };
    this.#entries.push(recorded);
    return recorded;
  }

  requests(filter: RequestFilter = {}): RecordedRequest[] {
    return this.#entries.filter(
      (entry) =>
        (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
        (filter.path === undefined || matchesPathPattern(filter.path, entry.path)),
    );
  }

  /**
   * Content-creating requests (POST, PATCH, PUT, DELETE outside `/app`, the
   * kind GitHub's secondary rate limit counts) per calendar minute.
   */
  contentCreatingPerMinute(): MinuteCount[] {
    const counts = new Map<number, number>();
    for (const entry of this.#contentCreating()) {
      const minute = Math.floor(entry.at.getTime() / 60_000) * 60_000;
      counts.set(minute, (counts.get(minute) ?? 0) + 1);
    }
    return [...counts.entries()]
      .sort(([left], [right]) => left - right)
      .map(([minute, count]) => ({ minute: new Date(minute).toISOString(), count }));
  }

  /** The most content-creating requests within any sliding 60-second window. */
  peakContentCreatingPerMinute(): number {
    return peakInWindow(this.#contentCreating(), 60_000);
  }

  /**
   * Per installation (by id; `none` for requests without an installation token), the most
   * content-creating requests it sent within any sliding window of `windowMs`.
   */
  peakContentCreatingByInstallation(windowMs = 60_000): Record<string, number> {
    const byInstallation = new Map<string, RecordedRequest[]>();
    for (const entry of this.#contentCreating()) {
      const key = String(entry.installationId ?? "none");
      byInstallation.set(key, [...(byInstallation.get(key) ?? []), entry]);
    }
    return Object.fromEntries(
      [...byInstallation].map(([key, entries]) => [key, peakInWindow(entries, windowMs)]),
    );
  }

  /**
   * When this installation's content-creating requests received before `entry` and after
   * `since` came, those the fake's secondary rate limit let through: what that limit counts.
   */
  contentCreatingTimes(entry: RecordedRequest, since: number): number[] {
    return this.#contentCreating()
      .filter(
        (other) =>
          other.sequence < entry.sequence &&
          other.installationId === entry.installationId &&
          !other.rateLimited &&
          other.at.getTime() > since,
      )
      .map((other) => other.at.getTime());
  }

  #contentCreating(): RecordedRequest[] {
    return this.#entries.filter(isContentCreating);
  }
}

/**
 * What GitHub's secondary rate limit counts as content-creating: POST, PATCH, PUT and DELETE
 * outside `/app` (the token exchange) and, on GraphQL, mutations only.
 */
export function isContentCreating(entry: Pick<RecordedRequest, "method" | "path" | "body">) {
  if (!contentCreatingMethods.has(entry.method) || entry.path.startsWith("/app/")) return false;
  if (entry.path !== "/graphql") return true;
  const query = (entry.body as { query?: unknown } | undefined)?.query;
  return typeof query === "string" && /^\s*mutation\b/.test(query.replace(/#[^\n]*/g, ""));
}

function peakInWindow(entries: readonly RecordedRequest[], windowMs: number): number {
  const times = entries.map((entry) => entry.at.getTime());
  let peak = 0;
  let windowStart = 0;
  for (let index = 0; index < times.length; index++) {
    while ((times[index] ?? 0) - (times[windowStart] ?? 0) >= windowMs) windowStart++;
    peak = Math.max(peak, index - windowStart + 1);
  }
  return peak;
}
