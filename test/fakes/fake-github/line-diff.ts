export type LineOperation =
  | { kind: "equal"; oldIndex: number; newIndex: number }
  | { kind: "delete"; oldIndex: number }
  | { kind: "insert"; newIndex: number };

// Above this many DP cells the middle is emitted as delete-all + insert-all:
// still a correct diff, just not a minimal one.
const maximumTableCells = 16_000_000;

/**
 * A minimal line diff (longest common subsequence, common prefix and suffix
 * trimmed first), in order of the old then new file.
 */
export function lineDiff(before: readonly string[], after: readonly string[]): LineOperation[] {
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) {
    prefix++;
  }
  let suffix = 0;
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  ) {
    suffix++;
  }
  const operations: LineOperation[] = [];
  for (let index = 0; index < prefix; index++) {
    operations.push({ kind: "equal", oldIndex: index, newIndex: index });
  }
  operations.push(
    ...diffMiddle(before, after, prefix, before.length - suffix, prefix, after.length - suffix),
  );
  for (let offset = suffix; offset > 0; offset--) {
    operations.push({
      kind: "equal",
      oldIndex: before.length - offset,
      newIndex: after.length - offset,
    });
  }
  return operations;
}

function diffMiddle(
  before: readonly string[],
  after: readonly string[],
  oldStart: number,
  oldEnd: number,
  newStart: number,
  newEnd: number,
): LineOperation[] {
  const rows = oldEnd - oldStart;
  const columns = newEnd - newStart;
  const operations: LineOperation[] = [];
  if (rows * columns > maximumTableCells) {
    for (let index = oldStart; index < oldEnd; index++) {
      operations.push({ kind: "delete", oldIndex: index });
    }
    for (let index = newStart; index < newEnd; index++) {
      operations.push({ kind: "insert", newIndex: index });
    }
    return operations;
  }
  // lengths[i * (columns + 1) + j] = LCS length of before[oldStart + i..] and after[newStart + j..]
  const width = columns + 1;
  const lengths = new Uint32Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = columns - 1; j >= 0; j--) {
      lengths[i * width + j] =
        before[oldStart + i] === after[newStart + j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  let i = 0;
  let j = 0;
  while (i < rows || j < columns) {
    if (i < rows && j < columns && before[oldStart + i] === after[newStart + j]) {
      operations.push({ kind: "equal", oldIndex: oldStart + i, newIndex: newStart + j });
      i++;
      j++;
    } else if (
      j >= columns ||
      (i < rows && (lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0))
    ) {
      operations.push({ kind: "delete", oldIndex: oldStart + i });
      i++;
    } else {
      operations.push({ kind: "insert", newIndex: newStart + j });
      j++;
    }
  }
  return operations;
}
