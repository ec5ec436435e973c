import { compileSafeGlob, type MatchBudget } from "../config/index.js";
import {
  conventionDirectory,
  cursorRuleDirectory,
  ROOT_CONVENTION_FILES,
  ruleFileKind,
} from "./convention-reads.js";

/** What one convention file applies to among the changed paths, said in the prompt. */
export interface ConventionScope {
  /** It applies to at least one changed path (or to the whole repository). */
  applies: boolean;
  /** Ours, e.g. `applies to the whole repository`, `applies to 3 changed files under pkg/`. */
  scope: string;
  /** The text the reviewers get: a rule file's without its front matter. */
  text: string;
}

/** Changed paths named in a scope; the rest are counted. */
const NAMED_PATHS = 3;
/** Front matter lines read: the keys sit at the top; the rest of a long header is not scanned. */
const FRONT_MATTER_LINES = 40;

/**
 * Where a convention file applies. A directory's AGENTS.md, CLAUDE.md… governs the files under
 * that directory; the repository-wide ones everything; a `.github/instructions/*.instructions.md`
 * the files its `applyTo` globs match; a `.cursor/rules/*.mdc` everything when `alwaysApply` is
 * true, else what its `globs` match (a rule with neither is asked for by hand in Cursor: not
 * applied). A `.cursor/rules` folder nested in `pkg/` governs the files under `pkg/` only, its
 * globs matched against their paths from `pkg/`. Globs are of the safe subset, matched in linear time within `budget`; a glob with
 * no `/` also matches a file name at any depth, as those tools mean it. A glob the subset
 * refuses matches nothing.
 */
export function conventionScope(
  file: { path: string; text: string },
  changedPaths: readonly string[],
  budget: MatchBudget,
): ConventionScope {
  const kind = ruleFileKind(file.path);
  if (kind === null) {
    const dir = conventionDirectory(file.path);
    if (dir === "" || (ROOT_CONVENTION_FILES as readonly string[]).includes(file.path)) {
      return { applies: true, scope: "applies to the whole repository", text: file.text };
    }
    const under = changedPaths.filter((path) => path.startsWith(`${dir}/`));
    return {
      applies: under.length > 0,
      scope: `applies to the files under ${dir}/ (${named(under)})`,
      text: file.text,
    };
  }
  const { keys, body } = frontMatter(file.text);
  // A nested rule folder governs its own folder: its globs are relative to it.
  const base = kind === "cursor" ? (cursorRuleDirectory(file.path) ?? "") : "";
  const under = base === "" ? "" : ` under ${base}/`;
  const governed =
    base === ""
      ? changedPaths.map((path) => ({ path, relative: path }))
      : changedPaths
          .filter((path) => path.startsWith(`${base}/`))
          .map((path) => ({ path, relative: path.slice(base.length + 1) }));
  if (kind === "cursor" && /^true$/i.test(keys.get("alwaysapply") ?? "")) {
    if (base === "") {
      return { applies: true, scope: "applies to the whole repository (alwaysApply)", text: body };
    }
    return {
      applies: governed.length > 0,
      scope: `applies to the files under ${base}/ (alwaysApply: ${named(governed.map((entry) => entry.path))})`,
      text: body,
    };
  }
  const key = kind === "applyTo" ? "applyto" : "globs";
  const globs = globList(keys.get(key) ?? "");
  const label = kind === "applyTo" ? "applyTo" : "globs";
  if (globs.length === 0) {
    return { applies: false, scope: `no ${label}: not applied`, text: body };
  }
  const matchers = globs.flatMap((glob) => {
    const compiled = compileSafeGlob(glob);
    return compiled.ok ? [{ compiled, nameOnly: !glob.includes("/") }] : [];
  });
  const matched = governed
    .filter(({ relative }) =>
      matchers.some(({ compiled, nameOnly }) => {
        const subject = nameOnly ? relative.slice(relative.lastIndexOf("/") + 1) : relative;
        // Out of budget: applied rather than withheld (bytes within the bound, not a wrong review).
        return compiled.matchesWithin(subject, budget) ?? true;
      }),
    )
    .map(({ path }) => path);
  return {
    applies: matched.length > 0,
    scope: `${label} ${globs.join(", ")}${under}: applies to ${named(matched)}`,
    text: body,
  };
}

function named(paths: readonly string[]): string {
  if (paths.length === 0) return "no changed file";
  const shown = paths.slice(0, NAMED_PATHS).join(", ");
  const more = paths.length - NAMED_PATHS;
  return more > 0 ? `${shown} and ${more} more changed files` : shown;
}

/** `---` key: value lines `---` at the file's start, lower-cased keys; the body after it. */
function frontMatter(text: string): { keys: Map<string, string>; body: string } {
  const keys = new Map<string, string>();
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return { keys, body: text };
  const end = lines.slice(1, FRONT_MATTER_LINES + 1).findIndex((line) => line.trim() === "---");
  if (end === -1) return { keys, body: text };
  for (const line of lines.slice(1, end + 1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    keys.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { keys, body: lines.slice(end + 2).join("\n") };
}

/** `"a, b"`, `[a, "b"]` or `a,b`: the globs, unquoted, without empties. */
function globList(value: string): string[] {
  const unquoted = value.replace(/^(["'])(.*)\1$/, "$2").trim();
  const inner =
    unquoted.startsWith("[") && unquoted.endsWith("]") ? unquoted.slice(1, -1) : unquoted;
  return inner
    .split(",")
    .map((glob) =>
      glob
        .trim()
        .replace(/^(["'])(.*)\1$/, "$2")
        .trim(),
    )
    .filter((glob) => glob !== "");
}
