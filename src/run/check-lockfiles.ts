import type { LockfileCheck, LockfileNote } from "../consensus/index.js";
import type { DiffFile, DiffLine } from "../diff/index.js";
import { exclusionOf } from "../diff/index.js";

/** The registries package managers use by default: a package from one of them is no news. */
const DEFAULT_REGISTRIES = new Set([
  "registry.npmjs.org",
  "registry.yarnpkg.com",
  "registry.npmmirror.com",
  "pypi.org",
  "files.pythonhosted.org",
  "crates.io",
  "static.crates.io",
  "index.crates.io",
  "proxy.golang.org",
  "sum.golang.org",
  "rubygems.org",
  "repo.maven.apache.org",
  "repo1.maven.org",
  "api.nuget.org",
  "repo.packagist.org",
]);

const URL_HOST = /\b(?:https?|git\+https?|git\+ssh|git|ssh):\/\/(?:[^@/\s"']+@)?([A-Za-z0-9.-]+)/g;
const INSTALL_SCRIPT = /"hasInstallScript"\s*:\s*true|\brequiresBuild:\s*true/;
/** The line that names a package entry: `"node_modules/x": {`, `/x@1.0.0:`, `x@^1:`… */
const ENTRY = /^\s*"?([^"\s][^"]*?)"?\s*[:{]\s*\{?\s*$/;
/** Notes kept per check: a lockfile rewritten from scratch must not fill the comment. */
const MAX_NOTES = 50;

/**
 * The deterministic check of the lockfiles a change touches, as no model reads them: every host
 * an added line fetches from that is neither a default registry nor already on a line the change
 * removes or keeps (a `resolved` URL moved to another host), and every package an added line
 * marks as running an install script. A lockfile whose lines the diff does not show is named as
 * not checked. Null when the change touches no lockfile.
 */
export function checkLockfiles(files: readonly DiffFile[]): LockfileCheck | null {
  const lockfiles = files.filter(
    (file) => exclusionOf(file) === "lockfile" && file.status !== "deleted",
  );
  if (lockfiles.length === 0) return null;
  const notes: LockfileNote[] = [];
  const unchecked: string[] = [];
  for (const file of lockfiles) {
    if (file.hunks.length === 0) unchecked.push(file.path);
    else notes.push(...notesOf(file));
  }
  return {
    checked: lockfiles.map((file) => file.path).filter((path) => !unchecked.includes(path)),
    unchecked,
    notes: notes.slice(0, MAX_NOTES),
    notesOmitted: Math.max(0, notes.length - MAX_NOTES),
  };
}

function notesOf(file: DiffFile): LockfileNote[] {
  const known = new Set<string>();
  const added: DiffLine[][] = [];
  for (const hunk of file.hunks) {
    for (const line of hunk.lines) {
      if (line.type !== "add") for (const host of hostsOf(line.content)) known.add(host);
    }
    added.push(hunk.lines);
  }
  const notes: LockfileNote[] = [];
  const newHosts = new Map<string, number>();
  for (const lines of added) {
    lines.forEach((line, index) => {
      if (line.type !== "add") return;
      for (const host of hostsOf(line.content)) {
        if (!known.has(host) && !DEFAULT_REGISTRIES.has(host) && !newHosts.has(host)) {
          newHosts.set(host, line.newLine ?? 0);
        }
      }
      if (INSTALL_SCRIPT.test(line.content)) {
        notes.push({
          path: file.path,
          line: line.newLine ?? 0,
          kind: "install-script",
          detail: entryBefore(lines, index),
        });
      }
    });
  }
  for (const [host, line] of newHosts) {
    notes.push({ path: file.path, line, kind: "host", detail: host });
  }
  return notes.sort((left, right) => left.line - right.line);
}

function hostsOf(text: string): string[] {
  return [...text.matchAll(URL_HOST)].map((match) => (match[1] ?? "").toLowerCase());
}

/** The package an added line belongs to: the nearest entry line above it in the hunk. */
function entryBefore(lines: readonly DiffLine[], index: number): string {
  for (let at = index - 1; at >= 0; at--) {
    const match = ENTRY.exec(lines[at]?.content ?? "");
    if (match?.[1] !== undefined) return match[1].slice(0, 200);
  }
  return "(package not named in the diff)";
}
