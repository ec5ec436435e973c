import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { requireWebhookSecret } from "../../src/config/require-webhook-secret.js";

const message = (run: () => void): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return "started";
};

describe("requireWebhookSecret", () => {
  it("refuses a receiving role with an app id but no usable secret, naming the variable", () => {
    for (const secret of [undefined, "", "   "]) {
      expect(
        message(() => requireWebhookSecret({ APP_ID: "1", WEBHOOK_SECRET: secret }, true)),
      ).toMatch(/^environment: WEBHOOK_SECRET: not set: /);
    }
    expect(
      message(() => requireWebhookSecret({ APP_ID: "1", WEBHOOK_SECRET: "development" }, true)),
    ).toMatch(/^environment: WEBHOOK_SECRET: is Probot's public default "development"/);
  });

  it("starts with a secret, in setup mode (no APP_ID), and as a worker that receives no webhook", () => {
    expect(
      message(() => requireWebhookSecret({ APP_ID: "1", WEBHOOK_SECRET: "s3cret" }, true)),
    ).toBe("started");
    expect(message(() => requireWebhookSecret({}, true))).toBe("started");
    expect(message(() => requireWebhookSecret({ APP_ID: "1" }, false))).toBe("started");
  });
});
