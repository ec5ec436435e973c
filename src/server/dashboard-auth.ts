import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The session cookie the sign-in form sets. */
export const DASHBOARD_COOKIE = "gadfly_dashboard";

/**
 * Who may see the dashboard: a request carrying `Authorization: Bearer <token>`, or the cookie
 * the sign-in form set. The cookie holds an HMAC of the token, not the token, so a cookie that
 * leaks (a log, a proxy) does not reveal the token; changing the token ends every session.
 * Comparisons hash both sides first and compare in constant time: neither the length nor a
 * prefix of the token can be learnt from response times.
 */
export interface DashboardAuth {
  /** True when the request carries the token or a valid session cookie. */
  allows(request: IncomingMessage): boolean;
  /** True when a submitted token is the dashboard's. */
  isToken(candidate: string): boolean;
  /** The cookie's value for a signed-in browser. */
  sessionValue(): string;
}

export function dashboardAuth(token: string): DashboardAuth {
  const session = createHmac("sha256", token).update("gadfly dashboard session v1").digest("hex");
  const isToken = (candidate: string) => sameSecret(candidate, token);
  return {
    allows(request) {
      const header = request.headers.authorization ?? "";
      const bearer = /^Bearer +(.+)$/i.exec(header.trim());
      if (bearer?.[1] !== undefined && isToken(bearer[1])) return true;
      const cookie = cookieValue(request.headers.cookie ?? "", DASHBOARD_COOKIE);
      return cookie !== null && sameSecret(cookie, session);
    },
    isToken,
    sessionValue: () => session,
  };
}

function sameSecret(candidate: string, secret: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(candidate), digest(secret));
}

function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return null;
}
