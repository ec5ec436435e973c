import { ConfigError } from "./config-error.js";

/** The secret Probot falls back to when none is set: public, so anyone can sign with it. */
export const PROBOT_DEFAULT_SECRET = "development";

/**
 * Refuses to start a process that receives webhooks without WEBHOOK_SECRET:
 * Probot would then verify signatures against its public default
 * ("development"), and anyone could forge a delivery that starts a paid round.
 * Probot's setup mode (no APP_ID yet) is exempt: it registers the app and runs
 * no handler of ours, so a forged delivery there reaches nothing.
 *
 * `receivesWebhooks` is false for the worker role: it serves only the
 * operations endpoints and never verifies a delivery, so it does not need the secret.
 */
export function requireWebhookSecret(
  env: Readonly<Record<string, string | undefined>>,
  receivesWebhooks: boolean,
): void {
  if (!receivesWebhooks) return;
  if ((env.APP_ID ?? "").trim() === "") return;
  const secret = env.WEBHOOK_SECRET ?? "";
  if (secret.trim() === "") {
    throw new ConfigError("environment", [
      {
        path: "WEBHOOK_SECRET",
        message:
          "not set: without it webhook signatures are checked against Probot's public default, so anyone could forge a delivery; set it to the GitHub App's webhook secret",
      },
    ]);
  }
  if (secret === PROBOT_DEFAULT_SECRET) {
    throw new ConfigError("environment", [
      {
        path: "WEBHOOK_SECRET",
        message: `is Probot's public default "${PROBOT_DEFAULT_SECRET}": anyone could forge a delivery; set it to the GitHub App's webhook secret`,
      },
    ]);
  }
}
