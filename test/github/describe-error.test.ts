import { createServer } from "node:net";
import { Octokit } from "@octokit/rest";
import { describe, expect, it } from "vitest";
import { describeError } from "../../src/github/describe-error.js";

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address !== null ? address.port : 0;
}

describe("describeError, for the log", () => {
  it("says GitHub could not be reached, not that it answered 500, when nothing answers", async () => {
    const port = await closedPort();
    const octokit = new Octokit({ baseUrl: `http://127.0.0.1:${port}`, request: { retries: 0 } });
    const error = await octokit.rest.pulls.get({ owner: "o", repo: "r", pull_number: 1 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const line = describeError(error);
    expect(line).toMatch(/^GitHub could not be reached for GET \/repos\/o\/r\/pulls\/1: /);
    expect(line).toContain("ECONNREFUSED");
    expect(line).not.toContain("answered 500");
  });

  it("names the status and route of an answer GitHub gave", () => {
    const error = Object.assign(new Error("Server Error"), {
      status: 502,
      request: { method: "POST", url: "https://api.github.com/repos/o/r/issues/1/comments" },
      response: { status: 502, headers: {}, data: "" },
    });
    expect(describeError(error)).toBe("GitHub answered 502 to POST /repos/o/r/issues/1/comments");
  });
});
