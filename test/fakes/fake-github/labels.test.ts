import type { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, pullRequestEvent, startFakeGitHub } from "./index.js";
import { quietOctokit } from "./quiet-octokit.js";

let fake: FakeGitHub;
let octokit: Octokit;
const repository = { owner: "octo-org", repo: "labelled" };

beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo({ owner: "octo-org", name: "labelled", ownerType: "Organization" });
  octokit = quietOctokit(fake.apiUrl);
});
afterAll(() => fake.close());

describe("labels on a pull request", () => {
  it("shows them as GitHub does on the pull, and keeps a name once whatever its case", async () => {
    const pr = fake.addPullRequest({ labels: ["bug"], files: [{ path: "a.js", head: "1\n" }] });
    const first = await octokit.rest.pulls.get({ ...repository, pull_number: pr.number });
    expect(first.data.labels.map((label) => label.name)).toEqual(["bug"]);
    expect(first.data.labels[0]).toMatchObject({
      url: expect.stringMatching(/\/repos\/octo-org\/labelled\/labels\/bug$/),
      color: "ededed",
      default: false,
    });
    fake.setLabels(pr, ["bug", "No Review", "no review"]);
    const second = await octokit.rest.pulls.get({ ...repository, pull_number: pr.number });
    expect(second.data.labels.map((label) => label.name)).toEqual(["bug", "No Review"]);
    expect(second.data.labels[0]?.id).toBe(first.data.labels[0]?.id);
  });

  it("delivers labeled and unlabeled with the label, and refuses either without one", () => {
    const pr = fake.setLabels(fake.addPullRequest({ files: [{ path: "b.js", head: "2\n" }] }), [
      "gadfly",
    ]);
    const event = pullRequestEvent("labeled", pr, { label: "gadfly" });
    const payload = event.payload as {
      action: string;
      label: { name: string };
      pull_request: { labels: { name: string }[] };
    };
    expect(payload.action).toBe("labeled");
    expect(payload.label.name).toBe("gadfly");
    expect(payload.pull_request.labels.map((label) => label.name)).toEqual(["gadfly"]);
    expect(() => pullRequestEvent("unlabeled", pr)).toThrow("needs its label");
    expect("label" in (pullRequestEvent("opened", pr).payload as object)).toBe(false);
  });
});
