import { buildFileChange } from "./build-file-change.js";
import type { FileChange, Tree } from "./types.js";

/**
 * The files a PR changes, sorted by path like GitHub's list. `renames`
 * (new path → old path) pairs an addition with a removal.
 */
export function diffTrees(
  base: Tree,
  head: Tree,
  renames: ReadonlyMap<string, string>,
): FileChange[] {
  const changes: FileChange[] = [];
  const renamedFrom = new Set<string>();
  for (const [newPath, oldPath] of renames) {
    const before = base.get(oldPath);
    const after = head.get(newPath);
    if (before === undefined || after === undefined || head.has(oldPath) || base.has(newPath)) {
      continue;
    }
    renamedFrom.add(oldPath);
    changes.push(buildFileChange({ path: newPath, previousPath: oldPath, before, after }));
  }
  const renamedTo = new Set(changes.map((change) => change.filename));
  const paths = new Set([...base.keys(), ...head.keys()]);
  for (const path of paths) {
    if (renamedFrom.has(path) || renamedTo.has(path)) continue;
    const before = base.get(path) ?? null;
    const after = head.get(path) ?? null;
    if (before !== null && after !== null && before.equals(after)) continue;
    changes.push(buildFileChange({ path, before, after }));
  }
  return changes.sort((left, right) =>
    left.filename < right.filename ? -1 : left.filename > right.filename ? 1 : 0,
  );
}
