import { ConfigError, requireWebhookSecret } from "../config/index.js";
import { type DoctorCheck, doctorCheck } from "./doctor-check.js";

/** The same rule the app enforces at start; a worker receives no webhook and needs none. */
export function checkWebhookSecret(
  env: Readonly<Record<string, string | undefined>>,
  receivesWebhooks: boolean,
): DoctorCheck {
  const title = "webhook secret";
  if (!receivesWebhooks) {
    return doctorCheck("webhook-secret", title, "skip", "a worker receives no webhook");
  }
  try {
    // Outside setup mode the rule needs APP_ID; here the secret is asked for regardless.
    requireWebhookSecret({ ...env, APP_ID: "doctor" }, true);
    return doctorCheck("webhook-secret", title, "pass", "WEBHOOK_SECRET set");
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return doctorCheck(
      "webhook-secret",
      title,
      "fail",
      error.issues.map((issue) => `${issue.path} ${issue.message.split(":")[0]}`).join("; "),
      "set WEBHOOK_SECRET to the secret on the App's settings page (setup mode writes it to .env)",
    );
  }
}
