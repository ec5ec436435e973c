import { unquoteGitPath } from "./unquote-git-path.js";

export interface GitHeaderPaths {
  oldPath: string;
  newPath: string;
}

/**
 * Splits the `a/x b/y` part of a `diff --git` line into its two paths, prefixes removed.
 * Unquoted names may hold spaces, so `a/x b/y` is ambiguous in general; like git itself we rely
 * on the fact that this line is only the path source when both names are equal (added, deleted,
 * mode-only and binary files; renames and copies carry `rename from`/`copy from` lines), and fall
 * back to the first ` b/` otherwise.
 */
export function splitGitHeaderPaths(names: string): GitHeaderPaths | null {
  if (names.startsWith('"')) {
    const first = unquoteGitPath(names, 0);
    if (first === null || names.charAt(first.end) !== " ") return null;
    const second = readName(names, first.end + 1);
    if (second === null) return null;
    return { oldPath: stripPrefix(first.value, "a/"), newPath: stripPrefix(second, "b/") };
  }
  const quotedSecond = names.indexOf(' "');
  if (quotedSecond !== -1 && names.endsWith('"')) {
    const second = unquoteGitPath(names, quotedSecond + 1);
    if (second !== null && second.end === names.length) {
      return {
        oldPath: stripPrefix(names.slice(0, quotedSecond), "a/"),
        newPath: stripPrefix(second.value, "b/"),
      };
    }
  }
  // Same name on both sides: "a/" + name + " b/" + name.
  if (names.length % 2 === 1) {
    const half = (names.length - 1) / 2;
    const left = names.slice(0, half);
    const right = names.slice(half + 1);
    if (
      names.charAt(half) === " " &&
      left.startsWith("a/") &&
      right.startsWith("b/") &&
      left.slice(2) === right.slice(2)
    ) {
      return { oldPath: left.slice(2), newPath: right.slice(2) };
    }
  }
  const separator = names.indexOf(" b/");
  if (separator === -1) {
    // No prefixes (`git diff --no-prefix`) and equal names: split in the middle.
    if (names.length % 2 === 1) {
      const half = (names.length - 1) / 2;
      const left = names.slice(0, half);
      if (names.charAt(half) === " " && left === names.slice(half + 1)) {
        return { oldPath: left, newPath: left };
      }
    }
    return null;
  }
  return {
    oldPath: stripPrefix(names.slice(0, separator), "a/"),
    newPath: names.slice(separator + 3),
  };
}

function readName(text: string, start: number): string | null {
  if (text.charAt(start) === '"') {
    const quoted = unquoteGitPath(text, start);
    return quoted !== null && quoted.end === text.length ? quoted.value : null;
  }
  return text.slice(start);
}

function stripPrefix(path: string, prefix: string): string {
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}
