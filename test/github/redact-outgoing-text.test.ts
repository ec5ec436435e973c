import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { githubOctokit } from "../../src/boot/github-octokit.js";
import { redactOutgoingText } from "../../src/github/redact-outgoing-text.js";
import { collectSecrets } from "../../src/run/collect-secrets.js";
import {
  PLANTED,
  SECRET_ENV,
  SECRET_PROVIDERS,
  secretFragments,
} from "../run/helpers/secret-kinds.js";

/*
 * The last gate before GitHub: whatever a bug lets through to a comment, a review
 * or a check run, the Octokit Gadfly publishes with redacts it from the request.
 */

let server: Server;
let baseUrl = "";
const received: { method: string; url: string; body: string; authorization: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        body,
        authorization: String(request.headers.authorization ?? ""),
      });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ id: 1 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the Octokit Gadfly publishes with", () => {
  const secrets = collectSecrets({ env: SECRET_ENV, providers: SECRET_PROVIDERS });
  const Octokit = githubOctokit({ githubRequest: () => undefined }, secrets);
  const token = `ghs_${"T0k".repeat(12)}`;
  const everySecret = PLANTED.map((planted) => planted.value).join(" | ");

  it("redacts every kind of secret from comments, reviews and check output, and keeps the rest", async () => {
    received.length = 0;
    const octokit = new Octokit({ baseUrl, auth: { token }, retry: { enabled: false } });
    await octokit.rest.issues.createComment({
      owner: "o",
      repo: "r",
      issue_number: 1,
      body: `comment text ${everySecret}`,
    });
    await octokit.rest.pulls.createReview({
      owner: "o",
      repo: "r",
      pull_number: 1,
      event: "COMMENT",
      body: `review text ${everySecret}`,
      comments: [{ path: "a.ts", line: 1, body: `inline text ${everySecret}` }],
    });
    await octokit.rest.checks.update({
      owner: "o",
      repo: "r",
      check_run_id: 1,
      output: {
        title: "check title",
        summary: `check summary ${everySecret}`,
        annotations: [
          {
            path: "a.ts",
            start_line: 1,
            end_line: 1,
            annotation_level: "notice",
            message: `annotation ${everySecret}`,
          },
        ],
      },
    });
    const bodies = received.map((request) => request.body).join("\n");
    for (const planted of PLANTED) {
      for (const fragment of secretFragments(planted.value)) {
        expect(bodies, planted.kind).not.toContain(JSON.stringify(fragment).slice(1, -1));
      }
    }
    for (const kept of [
      "comment text",
      "review text",
      "inline text",
      "check summary",
      "annotation",
    ]) {
      expect(bodies).toContain(kept);
    }
    // The request still authenticates: headers are never rewritten.
    expect(received.every((request) => request.authorization === `token ${token}`)).toBe(true);
  });
});

describe("redactOutgoingText", () => {
  it("prepares the secrets once for the Octokit class, not once a field or a request", async () => {
    let before: ((options: Record<string, unknown>) => unknown) | undefined;
    const hook = {
      before: (_name: string, fn: (options: Record<string, unknown>) => unknown) => {
        before = fn;
      },
    };
    redactOutgoingText(["a-webhook-secret-value", "another-secret-value"])({
      hook,
    } as unknown as Parameters<ReturnType<typeof redactOutgoingText>>[0]);
    const sort = vi.spyOn(Array.prototype, "sort");
    const sent: Record<string, unknown>[] = [];
    try {
      for (let request = 0; request < 20; request += 1) {
        const options: Record<string, unknown> = {
          method: "POST",
          url: "/repos/{owner}/{repo}/issues/{issue_number}/comments",
          body: "posted a-webhook-secret-value",
          output: { summary: "another-secret-value", annotations: [{ message: "kept" }] },
        };
        await before?.(options);
        sent.push(options);
      }
      expect(sort).not.toHaveBeenCalled();
    } finally {
      sort.mockRestore();
    }
    expect(sent[19]).toMatchObject({
      body: "posted [redacted]",
      output: { summary: "[redacted]", annotations: [{ message: "kept" }] },
    });
  });
});
