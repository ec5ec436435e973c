import { expect, it } from "vitest";
import { AppConfig } from "../../../src/config/schema.js";
import { providerCap } from "../../../src/llm/limits/provider-cap.js";

it("caps each provider at its own concurrency, else at review.concurrency", () => {
  const config = AppConfig.parse({
    providers: [
      { name: "cloud", type: "ollama", concurrency: 3 },
      { name: "openai", type: "openai" },
    ],
    models: [{ id: "m", provider: "cloud" }],
    review: { concurrency: 6 },
  });
  const cap = providerCap(config);
  expect(cap("cloud")).toBe(3);
  expect(cap("openai")).toBe(6);
  expect(cap("unknown")).toBe(6);
});

it("refuses a provider concurrency below 1, naming the field", () => {
  const parsed = AppConfig.safeParse({
    providers: [{ name: "cloud", type: "ollama", concurrency: 0 }],
    models: [{ id: "m", provider: "cloud" }],
  });
  expect(parsed.success).toBe(false);
  expect(parsed.error?.issues[0]?.path).toEqual(["providers", 0, "concurrency"]);
});
