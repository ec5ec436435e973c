import type { IncomingHttpHeaders } from "node:http";
import type { FakeState } from "./fake-state.js";
import type { Identity } from "./route.js";

/**
 * Who is calling, from the `Authorization` header: an app JWT, an
 * installation token the fake issued (acting as the app's bot), a user token
 * from `createUserToken`, or nothing. With `strict` off, a token the fake does
 * not know is taken for an installation token, so plain clients work.
 */
export function authenticate(
  headers: IncomingHttpHeaders,
  state: FakeState,
  strict: boolean,
): Identity {
  const header = headers.authorization;
  if (header === undefined || header === "") return { kind: "anonymous" };
  const match = /^(token|bearer)\s+(\S+)$/i.exec(header);
  const credential = match?.[2];
  if (credential === undefined) return { kind: "invalid", message: "Bad credentials" };
  const jwtPayload = decodeJwtPayload(credential);
  if (jwtPayload !== undefined) {
    // `exp` is left unchecked: the app signs with the wall clock, while tests may
    // run the fake on an injected one.
    return {
      kind: "jwt",
      issuer: jwtPayload.iss === undefined ? undefined : String(jwtPayload.iss),
    };
  }
  const issued = state.tokens.get(credential);
  if (issued !== undefined) {
    if (issued.expiresAt.getTime() <= state.now().getTime()) {
      return { kind: "invalid", message: "Bad credentials" };
    }
    return { kind: "installation", installationId: issued.installationId, user: state.bot };
  }
  const login = state.userTokens.get(credential);
  if (login !== undefined) return { kind: "user", user: state.user(login) };
  if (strict) return { kind: "invalid", message: "Bad credentials" };
  return { kind: "installation", installationId: undefined, user: state.bot };
}

function decodeJwtPayload(credential: string): Record<string, unknown> | undefined {
  const parts = credential.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1] ?? "", "base64url").toString("utf8"));
    return typeof payload === "object" && payload !== null
      ? (payload as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
