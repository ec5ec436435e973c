import { generateKeyPairSync } from "node:crypto";
import { ProbotOctokit } from "probot";

/**
 * What an in-process Probot needs to talk to the fake: a fresh app key, and an
 * Octokit pointed at the fake with retries and throttling off. A function, not
 * an object, is given to `defaults`: the object form is merged under Probot's
 * own throttle settings (Probot's defaults win the merge) and every comment would wait ~3 s.
 */
export function probotCredentials(apiUrl: string): {
  privateKey: string;
  Octokit: typeof ProbotOctokit;
} {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const Octokit = ProbotOctokit.defaults((options: Record<string, unknown>) => ({
    ...options,
    baseUrl: apiUrl,
    retry: { enabled: false },
    throttle: { enabled: false },
  }));
  return { privateKey, Octokit };
}
