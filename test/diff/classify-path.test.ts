import { describe, expect, it } from "vitest";
import { classifyPath, type PathKind } from "../../src/diff/classify-path.js";

describe("classifyPath", () => {
  const table: Array<[string, PathKind]> = [
    ["package-lock.json", "generated"],
    ["web/yarn.lock", "generated"],
    ["pnpm-lock.yaml", "generated"],
    ["crates/core/Cargo.lock", "generated"],
    ["go.sum", "generated"],
    ["poetry.lock", "generated"],
    ["Gemfile.lock", "generated"],
    ["dist/index.js", "generated"],
    ["packages/ui/build/app.css", "generated"],
    ["vendor/github.com/x/y.go", "generated"],
    ["public/jquery.min.js", "generated"],
    ["lib/app.js.map", "generated"],
    ["test/__snapshots__/render.test.ts.snap", "generated"],
    ["api/service.pb.go", "generated"],
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
