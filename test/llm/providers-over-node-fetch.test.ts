import { afterEach, describe, expect, it } from "vitest";
import type { ModelConfig, ProviderConfig } from "../../src/config/schema.js";
import { createNodeFetch, type NodeFetch } from "../../src/http/index.js";
import { createLanguageModel } from "../../src/llm/create-language-model.js";
import { ModelAbortedError, ModelError } from "../../src/llm/errors.js";
import type { ChatModel } from "../../src/llm/language-model.js";
import { createInMemoryModelCallLimiter } from "../../src/llm/limits/in-memory-model-call-limiter.js";
import { limitedModelFactory } from "../../src/llm/limits/limited-model-factory.js";
import { startFakeAnthropicServer } from "../fakes/fake-anthropic-server.js";
import { startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import { startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import type { FakeModelServer } from "../fakes/model-fake-server.js";
import { freePort } from "../helpers/free-port.js";

/*
 * The http providers as the app builds them, with the process's node fetch: the answers,
 * the error mapping the retry policy relies on (status, Retry-After, network errors,
 * aborts) and proof that every request went through the fetch given.
 */

const KEY = "sk-node-fetch-key-1234567890";

const providers: {
  type: "openai" | "ollama" | "anthropic";
  start: () => Promise<FakeModelServer>;
  config: (url: string) => ProviderConfig;
}[] = [
  {
    type: "openai",
    start: () => startFakeOpenAIServer({ apiKey: KEY }),
    config: (url) => ({ name: "p", type: "openai", baseURL: `${url}/v1`, apiKeyEnv: "KEY" }),
  },
  {
    type: "ollama",
    start: () => startFakeOllamaServer({ apiKey: KEY }),
    config: (url) => ({ name: "p", type: "ollama", host: url, apiKeyEnv: "KEY" }),
  },
  {
    type: "anthropic",
    start: () => startFakeAnthropicServer({ apiKey: KEY }),
    config: (url) => ({
      name: "p",
      type: "anthropic",
      baseURL: url,
      apiKeyEnv: "KEY",
      maxOutputTokens: 1024,
      promptCaching: false,
    }),
  },
];

const model: ModelConfig = { id: "board-id", provider: "p", model: "m" };
const hello = [{ role: "user" as const, content: "hi" }];

let fake: FakeModelServer | undefined;
let nodeFetch: NodeFetch | undefined;

afterEach(async () => {
  nodeFetch?.close();
  await fake?.close();
  fake = undefined;
});

/** The node fetch, counting the requests it was given. */
function countedNodeFetch(): { fetch: typeof fetch; urls: string[] } {
  nodeFetch = createNodeFetch();
  const send = nodeFetch;
  const urls: string[] = [];
  return {
    urls,
    fetch: (input, init) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return send(input, init);
    },
  };
}

function build(provider: ProviderConfig, fetch: typeof globalThis.fetch): ChatModel {
  const built = createLanguageModel({
    model,
    provider,
    env: { KEY },
    lens: "security",
    fetch,
    retry: { maxAttempts: 1 },
  });
  if (built.kind !== "chat") throw new Error("expected a chat model");
  return built;
}

describe.each(providers)("the $type provider over the node fetch", ({ start, config }) => {
  it("answers, every request sent through the fetch it was given", async () => {
    fake = await start();
    fake.script("m", [{ text: "first" }, { text: "second" }]);
    const counted = countedNodeFetch();
    const chat = build(config(fake.url), counted.fetch);
    expect((await chat.chat({ messages: hello })).text).toBe("first");
    expect((await chat.chat({ messages: hello })).text).toBe("second");
    expect(counted.urls).toHaveLength(2);
    expect(counted.urls.every((url) => url.startsWith(fake?.url ?? "-"))).toBe(true);
  });

  it("maps a 429 with Retry-After to a retryable error that keeps the wait", async () => {
    fake = await start();
    fake.script("m", [{ error: 429, headers: { "retry-after": "7" } }]);
    const error = await build(config(fake.url), countedNodeFetch().fetch)
      .chat({ messages: hello })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ isRetryable: true, retryAfterMs: 7000 });
  });

  it("maps a dropped connection and a refused one to retryable network errors", async () => {
    fake = await start();
    fake.script("m", [{ drop: true }]);
    const fetch = countedNodeFetch().fetch;
    const dropped = await build(config(fake.url), fetch)
      .chat({ messages: hello })
      .catch((caught: unknown) => caught);
    expect(dropped).toMatchObject({ isRetryable: true });
    expect((dropped as Error).message).toMatch(/network error \(ECONNRESET\)/);
    const refused = await build(config(`http://127.0.0.1:${await freePort()}`), fetch)
      .chat({ messages: hello })
      .catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ isRetryable: true });
    expect((refused as Error).message).toMatch(/network error \(ECONNREFUSED\)/);
  });

  it("ends a call the caller aborts, and the server sees the connection close", async () => {
    fake = await start();
    fake.script("m", [{ hang: true }]);
    const server = fake;
    const controller = new AbortController();
    const pending = build(config(fake.url), countedNodeFetch().fetch).chat({
      messages: hello,
      signal: controller.signal,
    });
    await server.waitFor(() => server.inFlight === 1);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(ModelAbortedError);
    await server.waitFor(() => server.closedBeforeReply === 1);
  });
});

it("limitedModelFactory hands its fetch to every model it builds", async () => {
  fake = await startFakeOpenAIServer({ apiKey: KEY });
  fake.script("m", [{ text: "limited" }]);
  const counted = countedNodeFetch();
  const factory = limitedModelFactory({
    env: { KEY },
    modelCalls: createInMemoryModelCallLimiter(() => 2),
    fetch: counted.fetch,
  });
  const built = factory(model, providers[0]?.config(fake.url) as ProviderConfig, "security");
  if (built.kind !== "chat") throw new Error("expected a chat model");
  expect((await built.chat({ messages: hello })).text).toBe("limited");
  expect(counted.urls).toHaveLength(1);
});
