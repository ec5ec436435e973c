/**
 * What a changed path is, for deciding what reviewers see first. Only a lockfile is known by its
 * name alone not to go to a model; "generated" needs the repository's evidence (exclusionOf).
 */
export type PathKind = "lockfile" | "source" | "config" | "test" | "docs";

/** Lockfiles: written by package managers, checked by checkLockfiles instead of by a model. */
const LOCKFILE_NAMES = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lock",
  "bun.lockb",
  "deno.lock",
  "cargo.lock",
  "go.sum",
  "poetry.lock",
  "pipfile.lock",
  "pdm.lock",
  "uv.lock",
  "composer.lock",
  "gemfile.lock",
  "podfile.lock",
  "mix.lock",
  "pubspec.lock",
  "flake.lock",
  "gradle.lockfile",
  "packages.lock.json",
  "package.resolved",
]);

const TEST_DIRECTORIES = new Set([
  "test",
  "tests",
  "__tests__",
  "spec",
  "specs",
  "e2e",
  "testdata",
  "__mocks__",
]);

const DOCS_DIRECTORIES = new Set(["docs", "doc", "documentation"]);
const DOCS_EXTENSIONS = new Set([".md", ".mdx", ".markdown", ".rst", ".adoc", ".txt"]);
const DOCS_NAMES = new Set(["license", "licence", "changelog", "authors", "notice", "copying"]);

const CONFIG_EXTENSIONS = new Set([
  ".json",
  ".jsonc",
  ".yml",
  ".yaml",
  ".toml",
  ".ini",
  ".cfg",
  ".conf",
  ".properties",
  ".xml",
]);

/**
 * Classifies a repository path (forward slashes). Checked in order: lockfile (by its name), test,
 * docs, config, and source for everything else. A folder's name (`build/`, `vendor/`, `dist/`) or
 * a suffix says nothing of who wrote a file: such a file is reviewed unless the repository says
 * it is generated (exclusionOf).
 */
export function classifyPath(path: string): PathKind {
  const segments = path.split("/");
  const originalName = segments.at(-1) ?? "";
  const name = originalName.toLowerCase();
  const directories = segments.slice(0, -1);
  const extension = extensionOf(name);

  if (LOCKFILE_NAMES.has(name)) return "lockfile";

  if (
    isTestName(originalName) ||
    directories.some((directory) => TEST_DIRECTORIES.has(directory))
  ) {
    return "test";
  }
  if (DOCS_EXTENSIONS.has(extension) || DOCS_NAMES.has(stem(name))) return "docs";
  if (directories.some((directory) => DOCS_DIRECTORIES.has(directory))) return "docs";
  if (CONFIG_EXTENSIONS.has(extension) || name.startsWith(".")) return "config";
  return "source";
}

/** `x.test.ts`, `x.spec.js`, `x_test.go`, `test_x.py`, `x_spec.rb`, `UserTest.java`, `UserTests.cs`. */
function isTestName(originalName: string): boolean {
  const base = stem(originalName);
  const lower = base.toLowerCase();
  return (
    lower.endsWith(".test") ||
    lower.endsWith(".spec") ||
    lower.endsWith("_test") ||
    lower.endsWith("_spec") ||
    lower.startsWith("test_") ||
    /[a-z0-9]Tests?$/.test(base)
  );
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot);
}

function stem(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? name : name.slice(0, dot);
}
