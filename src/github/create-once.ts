import type { Octokit } from "@octokit/rest";
import { type RetryPolicy, retryPolicy } from "../time/index.js";

/** Octokit routes that create something anew each time they are sent (not idempotent). */
const CREATES = [
  /^\/repos\/[^/]+\/[^/]+\/issues\/[^/]+\/comments$/,
  /^\/repos\/[^/]+\/[^/]+\/pulls\/[^/]+\/reviews$/,
  /^\/repos\/[^/]+\/[^/]+\/pulls\/[^/]+\/comments(\/[^/]+\/replies)?$/,
  /^\/repos\/[^/]+\/[^/]+\/check-runs$/,
];

/**
 * Whether a request creates something each time it is sent: a comment, a review, a reply, a check
 * run. `url` as Octokit passes it (a template or a full URL, GHE's `/api/v3` prefix or not).
 * Reactions are not: GitHub answers the existing one.
 */
export function createsAnew(method: string | undefined, url: string | undefined): boolean {
  if (String(method).toUpperCase() !== "POST") return false;
  const path = (url ?? "")
    .replace(/^[a-z]+:\/\/[^/]+/i, "")
    .replace(/^\/api(\/v3)?(?=\/)/, "")
    .split("?")[0] as string;
  return CREATES.some((route) => route.test(path.replace(/\{[^}]+\}/g, "x")));
}

/**
 * An Octokit plugin that turns off the client's own retries for the requests `createsAnew`
 * names: GitHub often creates the object and then answers 502, and a blind second POST posts a
 * second review or comment. Those requests go through `createOnce`, which looks before it retries.
 */
export function noBlindCreateRetries() {
  return (octokit: Pick<Octokit, "hook">): Record<string, never> => {
    octokit.hook.before("request", (options) => {
      if (createsAnew(options.method, options.url)) {
        options.request = { ...options.request, retries: 0 } as typeof options.request;
      }
    });
    return {};
  };
}

/**
 * GitHub may have done what it failed to confirm: a 5xx, or no answer at all (a timeout, a
 * dropped connection). A 4xx is a refusal: nothing was created.
 */
export function isUnconfirmed(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { status, name } = error as { status?: unknown; name?: unknown };
  if (name === "AbortError") return false;
  if (typeof status === "number") return status >= 500;
  return true;
}

/** Three sends at most, the wait between a look that found nothing and the next send 1 s, then 2 s. */
const SEND_THRICE = retryPolicy(3, 1000, "linear");

/** One send only: for what cannot be looked for, so an unconfirmed send is never repeated. */
export const ONE_SEND: RetryPolicy = { attempts: 1, wait: async () => undefined };

/**
 * Creates something on GitHub once: when a create is not confirmed (`isUnconfirmed`), `find`
 * looks for what it may have made (our marker, the round's meta line, the check's `external_id`)
 * and adopts it; only when nothing is there is the create sent again. A refusal, or a look that
 * fails, is thrown as it is.
 */
export async function createOnce<T>(
  create: () => Promise<T>,
  find: () => Promise<T | null>,
  policy: RetryPolicy = SEND_THRICE,
): Promise<T> {
  const attempts = Math.max(1, policy.attempts);
  for (let attempt = 1; ; attempt++) {
    try {
      return await create();
    } catch (error) {
      if (!isUnconfirmed(error) || attempt >= attempts) throw error;
      const found = await find();
      if (found !== null) return found;
      await policy.wait(attempt);
    }
  }
}
