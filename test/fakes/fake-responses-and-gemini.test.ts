import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGeminiServer, startFakeGeminiServer } from "./fake-gemini-server.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "./fake-openai-server.js";

/*
 * The fakes the real Codex and Gemini CLIs talk to (test/real-clis): the Responses API as the
 * official openai client reads it, the Gemini API's stream, and the 400s both real APIs give a
 * malformed body, so a client bug is not answered as if it were fine.
 */
const KEY = "sk-fake-protocols";
let openai: FakeOpenAIServer;
let gemini: FakeGeminiServer;

beforeAll(async () => {
  openai = await startFakeOpenAIServer({ apiKey: KEY });
  gemini = await startFakeGeminiServer({ apiKey: KEY });
});

afterAll(async () => {
  await Promise.all([openai?.close(), gemini?.close()]);
});

const post = (url: string, body: unknown, headers: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("the fake OpenAI server's Responses API", () => {
  it("streams the events the openai client assembles, and takes a tool call's output back", async () => {
    openai.script("gpt-r", [
      { toolCalls: [{ id: "call_1", name: "exec_command", arguments: { cmd: "cat a" } }] },
      { text: "VERDICT: done" },
    ]);
    const client = new OpenAI({ apiKey: KEY, baseURL: `${openai.url}/v1` });
    const stream = client.responses.stream({ model: "gpt-r", input: "Review this." });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const first = await stream.finalResponse();
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(types).toContain("response.function_call_arguments.delta");
    expect(first.output).toEqual([
      expect.objectContaining({ type: "function_call", call_id: "call_1", name: "exec_command" }),
    ]);
    const second = await client.responses.create({
      model: "gpt-r",
      input: [
        { role: "user", content: "Review this." },
        { type: "function_call", call_id: "call_1", name: "exec_command", arguments: "{}" },
        { type: "function_call_output", call_id: "call_1", output: "file contents" },
      ],
    });
    expect(second.output_text).toBe("VERDICT: done");
    expect(openai.requests.at(-1)?.messages.at(-1)).toMatchObject({
      role: "tool",
      content: "file contents",
    });
    expect(second.usage?.input_tokens).toBeGreaterThan(0);
  });

  it.each([
    [{ input: "x" }, "Missing required parameter: 'model'"],
    [{ model: "gpt-r", input: 7 }, "Invalid type for 'input'"],
    [{ model: "gpt-r", input: [{ role: "robot", content: "x" }] }, "'input[0].role'"],
    [
      { model: "gpt-r", input: [{ type: "function_call_output", call_id: "call_9", output: "x" }] },
      "No tool call found for function call output with call_id call_9",
    ],
    [{ model: "gpt-r", input: "x", tools: [{ type: "function" }] }, "'tools[0].name'"],
  ])("refuses %j with a 400, as the real API does", async (body, message) => {
    const response = await post(`${openai.url}/v1/responses`, body, {
      authorization: `Bearer ${KEY}`,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      message,
    );
  });
});

describe("the fake Gemini API", () => {
  const url = (method: string) => `${gemini.url}/v1beta/models/gemini-f:${method}`;

  it("answers streamGenerateContent as server-sent events, with usage", async () => {
    gemini.script("gemini-f", [{ text: "VERDICT: fine" }]);
    const response = await post(
      `${url("streamGenerateContent")}?alt=sse`,
      { contents: [{ role: "user", parts: [{ text: "Review this." }] }] },
      { "x-goog-api-key": KEY },
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const text = await response.text();
    const chunk = JSON.parse(text.replace(/^data: /, "").trim());
    expect(chunk.candidates[0].content.parts).toEqual([{ text: "VERDICT: fine" }]);
    expect(chunk.usageMetadata.promptTokenCount).toBeGreaterThan(0);
    expect(gemini.requests.at(-1)?.model).toBe("gemini-f");
  });

  it("refuses a wrong key (401) and malformed contents (400 INVALID_ARGUMENT)", async () => {
    const good = { contents: [{ role: "user", parts: [{ text: "x" }] }] };
    expect((await post(url("generateContent"), good, { "x-goog-api-key": "wrong" })).status).toBe(
      401,
    );
    for (const body of [
      { contents: [] },
      { contents: [{ role: "user", parts: [] }] },
      { contents: [{ role: "robot", parts: [{ text: "x" }] }] },
      { contents: [{ role: "user", parts: [{ text: "x", functionCall: { name: "f" } }] }] },
    ]) {
      const response = await post(url("generateContent"), body, { "x-goog-api-key": KEY });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: { status: string } }).error.status).toBe(
        "INVALID_ARGUMENT",
      );
    }
  });
});
