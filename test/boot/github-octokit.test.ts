import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { githubOctokit } from "../../src/boot/github-octokit.js";

let server: Server;
let baseUrl = "";
const userAgents: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    userAgents.push(String(request.headers["user-agent"]));
    const found = request.url === "/repos/octo-org/api";
    response.writeHead(found ? 200 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify(found ? { id: 1, name: "api" } : { message: "Not Found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("keeps Probot's Octokit (throttling, retries, its defaults) and counts every request by route", async () => {
  const counted: string[] = [];
  const Octokit = githubOctokit({
    githubRequest: (kind, outcome) => counted.push(`${kind} ${outcome}`),
  });
  const plugins = (Octokit as unknown as { plugins: { name: string }[] }).plugins.map(
    (plugin) => plugin.name,
  );
  expect(plugins).toEqual(expect.arrayContaining(["throttling", "retry", "paginateRest"]));

  const octokit = new Octokit({
    baseUrl,
    auth: { token: "installation-token" },
    retry: { enabled: false },
  });
  await octokit.rest.repos.get({ owner: "octo-org", repo: "api" });
  await expect(octokit.rest.repos.get({ owner: "octo-org", repo: "gone" })).rejects.toThrow();
  expect(counted).toEqual(["GET /repos/{owner}/{repo} ok", "GET /repos/{owner}/{repo} error"]);
  // Probot's defaults still apply to the extended class.
  expect(userAgents[0]).toMatch(/^probot\//);
});
