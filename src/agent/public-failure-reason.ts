import { isModelError, redactSecrets } from "../llm/index.js";

/*
 * What a lens's failure or cancellation may say in public, decided here and only here: LensFailure
 * carries a message that is already safe; any other error is described by kind, never quoted.
 */

/** A lens that ended without a publishable answer; the message is safe to publish. */
export class LensFailure extends Error {
  /** What the model did answer, if anything: kept for the per-lens detail. */
  readonly text: string;

  /** `cause`: the error behind it, for the log; the message is what is published. */
  constructor(message: string, text = "", cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "LensFailure";
    this.text = text;
  }
}

const MAX_REASON_CHARS = 300;
/** Error codes of a connection that failed: worth saying, never with the host. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
]);

/**
 * The one rule for what a failure may say in public (the status board, the check
 * run, the stored round): our typed errors give their public message (a lens
 * failure's, a model error's, any error carrying `publicMessage`), a GitHub API
 * error its status and route, and anything else only its kind ("internal error
 * (TypeError)", "internal error (file system)", "network error"), since its message
 * could hold a path, an errno, a host or a payload. Whoever calls this logs the
 * error itself: the detail goes to the log, never to the page.
 */
export function publicFailureReason(error: unknown): string {
  const reason = redactSecrets(describePublicly(error)).replace(/\s+/g, " ").trim();
  return reason.length <= MAX_REASON_CHARS ? reason : `${reason.slice(0, MAX_REASON_CHARS - 1)}…`;
}

function describePublicly(error: unknown): string {
  if (error instanceof LensFailure) return error.message;
  if (isModelError(error)) return error.publicMessage;
  if (typeof error !== "object" || error === null) return "internal error";
  const candidate = error as {
    publicMessage?: unknown;
    status?: unknown;
    request?: { method?: unknown; url?: unknown };
    code?: unknown;
    syscall?: unknown;
    name?: unknown;
  };
  if (typeof candidate.publicMessage === "string") return candidate.publicMessage;
  if (typeof candidate.status === "number" && typeof candidate.request === "object") {
    const method = typeof candidate.request.method === "string" ? candidate.request.method : "";
    return `GitHub API error ${candidate.status}${routeOf(method, candidate.request.url)}`;
  }
  if (candidate.name === "AbortError") return "cancelled";
  if (candidate.name === "TimeoutError") return "timed out";
  if (typeof candidate.code === "string" && NETWORK_CODES.has(candidate.code)) {
    return "network error";
  }
  if (typeof candidate.code === "string" && typeof candidate.syscall === "string") {
    return "internal error (file system)";
  }
  const name = typeof candidate.name === "string" ? candidate.name : "";
  return /^[A-Za-z]{1,40}$/.test(name) ? `internal error (${name})` : "internal error";
}

/** ` on POST /repos/o/r/issues/1/comments`: the route, without host, query or token. */
function routeOf(method: string, url: unknown): string {
  if (typeof url !== "string") return "";
  let path: string;
  try {
    path = new URL(url).pathname.replace(/^\/api\/v3/, "");
  } catch {
    return "";
  }
  return ` on ${method} ${path}`.trimEnd();
}

/**
 * Why a lens or a round was stopped, in words fit for the board: the reasons we
 * abort with are ours (a string such as "superseded by 1a2b3c4", "shutting down", a
 * timeout carrying `publicMessage`); any other abort reason is only "cancelled",
 * since its message could hold anything.
 */
export function publicCancelReason(reason: unknown): string {
  if (typeof reason === "string" && reason.trim() !== "") return oneLine(reason);
  if (typeof reason === "object" && reason !== null) {
    const candidate = reason as { publicMessage?: unknown; name?: unknown; message?: unknown };
    if (typeof candidate.publicMessage === "string" && candidate.publicMessage.trim() !== "") {
      return oneLine(candidate.publicMessage);
    }
  }
  return "cancelled";
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= 300 ? line : `${line.slice(0, 299)}…`;
}
