/**
 * Extensions of source, config and docs files: a file with one of these is text to a reviewer
 * even when git calls it binary (a NUL byte, a `-diff` attribute), so it is never "binary".
 */
const TEXT_EXTENSIONS = new Set([
  ...["js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue", "svelte", "astro"],
  ...["py", "pyi", "rb", "go", "rs", "java", "kt", "kts", "scala", "groovy", "gradle", "clj"],
  ...["c", "h", "cc", "cpp", "cxx", "hpp", "hh", "m", "mm", "cs", "fs", "vb", "swift", "dart"],
  ...["php", "pl", "pm", "lua", "r", "jl", "ex", "exs", "erl", "hs", "ml", "elm", "nim", "zig"],
  ...["sh", "bash", "zsh", "fish", "ps1", "psm1", "bat", "cmd", "sql", "graphql", "gql", "proto"],
  ...["html", "htm", "css", "scss", "sass", "less", "xml", "xsl", "svg", "tf", "hcl", "nix"],
  ...["json", "jsonc", "json5", "yml", "yaml", "toml", "ini", "cfg", "conf", "env", "properties"],
  ...[
    "md",
    "mdx",
    "markdown",
    "rst",
    "adoc",
    "txt",
    "csv",
    "tsv",
    "lock",
    "mk",
    "cmake",
    "dockerfile",
  ],
]);

/** Names without an extension that are source all the same. */
const TEXT_NAMES = new Set([
  "dockerfile",
  "makefile",
  "rakefile",
  "gemfile",
  "jenkinsfile",
  "procfile",
]);

/** Whether `path`'s name says it is source, config or docs (case-insensitive). */
export function hasTextExtension(path: string): boolean {
  const name = (path.split("/").at(-1) ?? "").toLowerCase();
  if (TEXT_NAMES.has(name)) return true;
  const dot = name.lastIndexOf(".");
  return dot >= 0 && TEXT_EXTENSIONS.has(name.slice(dot + 1));
}
