import { describe, expect, it } from "vitest";
import { AppConfig } from "../../src/config/schema.js";
import { modelCallIdleTimeoutMs } from "../../src/llm/model-call-idle-timeout.js";

const config = (review: object, providers: object[] = [{ name: "local", type: "ollama" }]) =>
  AppConfig.parse({ providers, models: [{ id: "m", provider: "local" }], review });

describe("modelCallIdleTimeoutMs", () => {
  it("lets a model call stay silent as long as the reviewer's timeout allows: 900 s by default", () => {
    expect(modelCallIdleTimeoutMs(config({}))).toBe(900_000);
    expect(modelCallIdleTimeoutMs(config({ timeoutSeconds: 3600 }))).toBe(3_600_000);
  });

  it("takes a provider's own longer timeout, and never goes under undici's 300 s", () => {
    const slow = [
      { name: "local", type: "ollama", timeoutSeconds: 1200 },
      { name: "api", type: "openai", timeoutSeconds: 30 },
    ];
    expect(modelCallIdleTimeoutMs(config({ timeoutSeconds: 600 }, slow))).toBe(1_200_000);
    expect(modelCallIdleTimeoutMs(config({ timeoutSeconds: 60 }))).toBe(300_000);
  });
});
