import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../e2e/harness.js";

interface Manifest {
  default_events: string[];
  default_permissions: Record<string, string>;
}

describe("app.yml, the GitHub App manifest", () => {
  it("subscribes to every event Gadfly handles, feedback on findings included", async () => {
    const manifest = parse(await readFile(join(ROOT, "app.yml"), "utf8")) as Manifest;
    expect([...manifest.default_events].sort()).toEqual([
      "check_run",
      "issue_comment",
      "pull_request",
      "pull_request_review_comment",
      "pull_request_review_thread",
    ]);
    // Reactions on review comments are read and written with the pull_requests permission.
    expect(manifest.default_permissions).toMatchObject({
      pull_requests: "write",
      issues: "write",
      checks: "write",
      contents: "read",
    });
  });
});
