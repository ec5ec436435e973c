/**
 * The HTTP core the fake OpenAI and Ollama servers share: a real server on 127.0.0.1 (an
 * ephemeral port) that checks the bearer key, records every chat request, counts calls per
 * model, tracks requests in flight and answers from scripts. The protocol (routes, body
 * shapes) is plugged in by each fake.
 */
import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type FakeAnswer,
  type FakeMessage,
  type FakeModelRequest,
  type FakeReply,
  type FakeScript,
  lensOf,
  ModelScripts,
  type ScriptMatch,
} from "./model-script.js";

export interface FakeProtocol {
  /** "chat" for the chat route, a fixed answer for others, undefined for 404. */
  route(
    method: string,
    path: string,
    scripts: ModelScripts,
  ): "chat" | { status: number; body: unknown } | undefined;
  /** The model and messages of a chat request body (`path`: which chat route it came to). */
  parseChat(
    body: Record<string, unknown>,
    path: string,
  ): {
    model: string;
    messages: FakeMessage[];
    tools: unknown[];
  };
  renderAnswer(answer: FakeAnswer, request: FakeModelRequest, sequence: number): unknown;
  /** A protocol-shaped error body. */
  renderError(status: number, message: string): unknown;
  /**
   * The rendered answer as a server-sent event stream, when the request asked for one (the
   * Messages API with `stream: true`, as Claude Code asks); undefined for a plain answer.
   */
  renderStream?(rendered: unknown, request: FakeModelRequest): string | undefined;
  /** Content type of a successful chat answer (Ollama streams NDJSON unless asked not to). */
  answerContentType?(request: FakeModelRequest): string;
  /**
   * The token counts a rendered answer reports, in the neutral shape: what the provider would
   * bill for it (read back, so what is recorded is exactly what the client was told).
   */
  reportedUsage?(rendered: unknown): ReportedUsage | undefined;
  /** Whether the request carries the key; default `Authorization: Bearer <apiKey>`. */
  authorized?(headers: IncomingMessage["headers"], apiKey: string): boolean;
  /** Why the real server would refuse this chat body with a 400, if it would. */
  invalidRequest?(
    body: Record<string, unknown>,
    headers: IncomingMessage["headers"],
    path: string,
  ): string | undefined;
}

/** The usage one answer reported, with the request's model and lens: the fake's bill line. */
export interface ReportedUsage {
  inputTokens: number;
  /** Of `inputTokens`, the part reported as read from the provider's prompt cache. */
  cachedInputTokens: number;
  outputTokens: number;
}

export interface BilledRequest extends ReportedUsage {
  model: string;
  lens: string | undefined;
  /** Bytes of the request body as received. */
  requestBytes: number;
}

export interface FakeModelServerOptions {
  /** When set, every request must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
}

export class FakeModelServer {
  /** Every chat request, in arrival order. */
  readonly requests: FakeModelRequest[] = [];
  /** Requests whose connection closed before they were answered (aborts seen from this side). */
  closedBeforeReply = 0;
  inFlight = 0;
  maxInFlight = 0;
  /** The usage each answered chat request reported, in answer order (the provider's bill). */
  readonly billed: BilledRequest[] = [];
  /** Requests turned away with 401. */
  unauthorized = 0;
  /** Why each chat body the protocol refuses (400) was refused; such requests are not recorded. */
  readonly rejected: string[] = [];

  private readonly scripts = new ModelScripts();
  private readonly calls = new Map<string, number>();
  private readonly changes = new EventEmitter();
  private readonly server = createServer((request, response) => {
    this.handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        this.send(response, 500, this.protocol.renderError(500, `fake crashed: ${String(error)}`));
      }
    });
  });

  private constructor(
    private readonly protocol: FakeProtocol,
    private readonly options: FakeModelServerOptions,
  ) {
    this.changes.setMaxListeners(0);
  }

  static async start(
    protocol: FakeProtocol,
    options: FakeModelServerOptions = {},
  ): Promise<FakeModelServer> {
    const fake = new FakeModelServer(protocol, options);
    await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `http://127.0.0.1:<port>`, without a path. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Scripts `model`'s answers, optionally only for one lens or requests a predicate accepts. */
  script(model: string, script: FakeScript, match: ScriptMatch = {}): this {
    this.scripts.add(model, script, match);
    return this;
  }

  callCount(model: string): number {
    return this.calls.get(model) ?? 0;
  }

  /** Resolves once `condition` holds (checked after every state change), or rejects after `timeoutMs`. */
  waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
    return new Promise((resolve, reject) => {
      if (condition()) {
        resolve();
        return;
      }
      const onChange = () => {
        if (condition()) {
          clearTimeout(timer);
          this.changes.off("change", onChange);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        this.changes.off("change", onChange);
        reject(new Error(`fake model server: condition not met within ${timeoutMs} ms`));
      }, timeoutMs);
      this.changes.on("change", onChange);
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private changed(): void {
    this.changes.emit("change");
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    response.on("close", () => {
      this.inFlight -= 1;
      if (!response.writableFinished) {
        this.closedBeforeReply += 1;
      }
      this.changed();
    });
    this.changed();

    const rawBody = await readBody(request);
    const apiKey = this.options.apiKey;
    const authorized =
      apiKey === undefined ||
      (this.protocol.authorized?.(request.headers, apiKey) ??
        request.headers.authorization === `Bearer ${apiKey}`);
    if (!authorized) {
      this.unauthorized += 1;
      this.send(response, 401, this.protocol.renderError(401, "invalid or missing API key"));
      return;
    }
    const path = new URL(request.url ?? "/", "http://fake").pathname;
    const route = this.protocol.route(request.method ?? "GET", path, this.scripts);
    if (route === undefined) {
      this.send(
        response,
        404,
        this.protocol.renderError(404, `no route ${request.method} ${path}`),
      );
      return;
    }
    if (route !== "chat") {
      this.send(response, route.status, route.body);
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody) as Record<string, unknown>;
    } catch {
      this.send(response, 400, this.protocol.renderError(400, "body is not JSON"));
      return;
    }
    const invalid = this.protocol.invalidRequest?.(body, request.headers, path);
    if (invalid !== undefined) {
      this.rejected.push(invalid);
      this.send(response, 400, this.protocol.renderError(400, invalid));
      return;
    }
    const chat = this.protocol.parseChat(body, path);
    const modelRequest: FakeModelRequest = {
      path,
      headers: request.headers,
      body,
      model: chat.model,
      messages: chat.messages,
      tools: chat.tools,
      lens: lensOf(chat.messages),
      receivedAt: Date.now(),
    };
    this.requests.push(modelRequest);
    this.calls.set(chat.model, this.callCount(chat.model) + 1);
    this.changed();

    const lookup = await this.scripts.next(modelRequest);
    if (lookup.kind === "unknown-model") {
      this.send(response, 404, this.protocol.renderError(404, `model "${chat.model}" not found`));
      return;
    }
    if (lookup.kind === "exhausted") {
      // 400, not 5xx: a test that runs out of script should fail at once, not be retried.
      this.send(
        response,
        400,
        this.protocol.renderError(400, `fake: no scripted reply left for ${chat.model}`),
      );
      return;
    }
    await this.reply(lookup.reply, modelRequest, response);
  }

  private async reply(
    reply: FakeReply,
    request: FakeModelRequest,
    response: ServerResponse,
  ): Promise<void> {
    if ("hang" in reply) {
      await new Promise<void>((resolve) => response.on("close", resolve));
      return;
    }
    if ("drop" in reply) {
      response.socket?.destroy();
      return;
    }
    if (reply.delayMs !== undefined) {
      const closed = await delayUnlessClosed(reply.delayMs, response);
      if (closed) {
        return;
      }
    }
    if ("error" in reply) {
      const body =
        reply.body === undefined
          ? this.protocol.renderError(reply.error, `scripted error ${reply.error}`)
          : reply.body;
      this.send(response, reply.error, body, reply.headers);
      return;
    }
    const rendered = this.protocol.renderAnswer(reply, request, this.requests.length);
    const usage = this.protocol.reportedUsage?.(rendered);
    if (usage !== undefined) {
      this.billed.push({
        model: request.model,
        lens: request.lens,
        requestBytes: Buffer.byteLength(JSON.stringify(request.body)),
        ...usage,
      });
    }
    const stream = this.protocol.renderStream?.(rendered, request);
    if (stream !== undefined) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(stream);
      return;
    }
    const contentType = this.protocol.answerContentType?.(request) ?? "application/json";
    const text =
      contentType === "application/json"
        ? JSON.stringify(rendered)
        : `${JSON.stringify(rendered)}\n`;
    response.writeHead(200, { "content-type": contentType });
    response.end(text);
  }

  private send(
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    const isText = typeof body === "string";
    response.writeHead(status, {
      "content-type": isText ? "text/plain" : "application/json",
      ...headers,
    });
    response.end(isText ? body : JSON.stringify(body));
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** Waits `milliseconds`; true when the client closed the connection meanwhile. */
function delayUnlessClosed(milliseconds: number, response: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      response.off("close", onClose);
      resolve(false);
    }, milliseconds);
    response.on("close", onClose);
  });
}
