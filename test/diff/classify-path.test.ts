import { describe, expect, it } from "vitest";
import { classifyPath, type PathKind } from "../../src/diff/classify-path.js";

describe("classifyPath", () => {
  const table: Array<[string, PathKind]> = [
    ["package-lock.json", "lockfile"],
    ["web/yarn.lock", "lockfile"],
    ["pnpm-lock.yaml", "lockfile"],
    ["crates/core/Cargo.lock", "lockfile"],
    ["go.sum", "lockfile"],
    ["poetry.lock", "lockfile"],
    ["Gemfile.lock", "lockfile"],
    // A folder's name or a suffix is no evidence of who wrote a file: these are reviewed.
    ["dist/index.js", "source"],
    ["packages/ui/build/app.css", "source"],
    ["vendor/github.com/x/y.go", "source"],
    ["public/jquery.min.js", "source"],
    ["api/service.pb.go", "source"],
    ["test/__snapshots__/render.test.ts.snap", "test"],
    ["src/app.ts", "source"],
    ["cmd/main.go", "source"],
    ["Dockerfile", "source"],
    ["builder/index.ts", "source"],
    ["src/latest.ts", "source"],
    ["src/Contest.java", "source"],
    ["test/diff/parse.test.ts", "test"],
    ["src/parse.spec.tsx", "test"],
    ["pkg/parse_test.go", "test"],
    ["tests/test_parse.py", "test"],
    ["app/src/UserServiceTest.java", "test"],
    ["spec/models/user_spec.rb", "test"],
    ["README.md", "docs"],
    ["docs/guide/setup.html", "docs"],
    ["LICENSE", "docs"],
    ["CHANGELOG", "docs"],
    ["package.json", "config"],
    [".github/workflows/ci.yml", "config"],
    ["tsconfig.json", "config"],
    [".gitignore", "config"],
  ];

  it.each(table)("%s is %s", (path, kind) => {
    expect(classifyPath(path)).toBe(kind);
  });
});
