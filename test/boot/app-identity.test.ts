import { expect, it } from "vitest";
import { appIdentity } from "../../src/boot/app-identity.js";
import type { GitHubClient } from "../../src/github/github-client.js";

function client(answers: (() => Promise<unknown>)[]): {
  asks: () => number;
  make: () => Promise<GitHubClient>;
} {
  let asked = 0;
  const octokit = {
    rest: {
      apps: {
        getAuthenticated: () => {
          const answer = answers[asked] ?? answers.at(-1);
          asked += 1;
          if (answer === undefined) throw new Error("no answer");
          return answer();
        },
      },
    },
  } as unknown as GitHubClient;
  return { asks: () => asked, make: async () => octokit };
}

it("asks GitHub once, then remembers", async () => {
  const github = client([async () => ({ data: { id: 7, slug: "gadfly", name: "Gadfly" } })]);
  const whoAmI = appIdentity(github.make);
  expect(await whoAmI()).toEqual({ appId: 7, botLogin: "gadfly[bot]" });
  expect(await whoAmI()).toEqual({ appId: 7, botLogin: "gadfly[bot]" });
  expect(github.asks()).toBe(1);
});

it("forgets a failed answer, so the next call asks again", async () => {
  const github = client([
    async () => {
      throw new Error("GitHub is down");
    },
    async () => ({ data: { id: 7, slug: null, name: "gadfly-dev" } }),
  ]);
  const whoAmI = appIdentity(github.make);
  await expect(whoAmI()).rejects.toThrow("GitHub is down");
  expect(await whoAmI()).toEqual({ appId: 7, botLogin: "gadfly-dev[bot]" });
  expect(github.asks()).toBe(2);
});
