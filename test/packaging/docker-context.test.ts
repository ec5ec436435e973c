import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { dockerIgnoreMatcher } from "./docker-ignore-matcher.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const isExcluded = dockerIgnoreMatcher(readFileSync(join(ROOT, ".dockerignore"), "utf8"));

/** Directories never walked into (after checking the context leaves them out): large, or git's. */
const PRUNED = [".git", "node_modules", "dist", "coverage", ".gadfly"];

/** The files `docker build .` would send: the checkout walked with .dockerignore applied. */
function buildContext(): string[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      const relativePath = relative(ROOT, path).split(sep).join("/");
      if (entry.isDirectory()) {
        if (PRUNED.includes(relativePath)) continue;
        walk(path);
      } else if (!isExcluded(relativePath)) {
        files.push(relativePath);
      }
    }
  };
  walk(ROOT);
  return files.sort();
}

describe("the matcher follows Docker's .dockerignore rules", () => {
  const match = (rules: string, path: string) => dockerIgnoreMatcher(rules)(path);

  it("anchors patterns at the root; ** reaches into directories", () => {
    expect(match("*.pem", "key.pem")).toBe(true);
    expect(match("*.pem", "src/key.pem")).toBe(false);
    expect(match("**/*.pem", "src/deep/key.pem")).toBe(true);
    expect(match("**/*.pem", "key.pem")).toBe(true);
  });

  it("leaves out everything under a matching directory, and lets the last rule win", () => {
    expect(match("test", "test/a/b.ts")).toBe(true);
    expect(match("*\n!src", "src/main.ts")).toBe(false);
    expect(match("*\n!src\n**/*.test.ts", "src/a.test.ts")).toBe(true);
    expect(match("", "anything")).toBe(false);
  });
});

describe(".dockerignore", () => {
  it("leaves out tests, secrets, local state and everything the image does not need", () => {
    for (const path of [
      "test/cli-e2e/demo.test.ts",
      "src/cli/main.test.ts",
      "server.pem",
      "src/github/private-key.pem",
      ".env",
      ".env.production",
      "src/.env.local",
      ".git/config",
      ".gadfly/gadfly.sqlite",
      "node_modules/probot/package.json",
      "coverage/lcov.info",
      "docs/github-action.md",
      "examples/demo/make-recordings.ts",
      "bench/clustering.ts",
      "dist/main.js",
    ]) {
      expect({ path, excluded: isExcluded(path) }).toEqual({ path, excluded: true });
    }
  });

  it("keeps what the image is built from", () => {
    for (const path of [
      "package.json",
      "package-lock.json",
      "tsconfig.json",
      "tsconfig.build.json",
      "app.yml",
      "bin/gadfly.js",
      "src/main.ts",
      "src/cli/main.ts",
      "lenses/security.md",
      "templates/consensus-comment.hbs",
      "examples/demo/change.diff",
    ]) {
      expect({ path, excluded: isExcluded(path) }).toEqual({ path, excluded: false });
    }
  });

  it("sends a build context of this checkout with no test file, key or env file in it", () => {
    const context = buildContext();
    for (const directory of PRUNED) expect(isExcluded(`${directory}/x`)).toBe(true);
    expect(context.length).toBeGreaterThan(50);
    expect(context).toContain("src/main.ts");
    const offending = context.filter(
      (path) =>
        /^(test|docs|bench)\//.test(path) ||
        (/^examples\//.test(path) && !/^examples\/demo\//.test(path)) ||
        /(^|\/)(test|tests|__tests__|fixtures)\//.test(path) ||
        /\.(test|spec)\.ts$/.test(path) ||
        /\.(pem|key|p12)$/.test(path) ||
        /(^|\/)\.env(\.|$)/.test(path),
    );
    expect(offending).toEqual([]);
    const topLevel = [...new Set(context.map((path) => path.split("/")[0]))].sort();
    expect(topLevel).toEqual([
      "app.yml",
      "bin",
      "examples",
      "lenses",
      "package-lock.json",
      "package.json",
      "src",
      "templates",
      "tsconfig.build.json",
      "tsconfig.json",
    ]);
  });
});
