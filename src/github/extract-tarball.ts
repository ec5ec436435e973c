import { mkdir } from "node:fs/promises";
import { isAbsolute, normalize } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import * as tar from "tar";

export interface ExtractLimits {
  /** Total bytes of regular files written. */
  maxTotalBytes: number;
  /** Files larger than this are skipped (listed) rather than written. */
  maxFileBytes: number;
  maxFiles: number;
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxTotalBytes: 512 * 1024 * 1024,
  maxFileBytes: 5 * 1024 * 1024,
  maxFiles: 50_000,
};

export interface ExtractResult {
  files: number;
  bytes: number;
  /** Paths skipped: over the per-file size, links leaving the tree, or past a limit. */
  skipped: { path: string; reason: "too-large" | "unsafe-link" | "over-limit" }[];
}

/**
 * Extracts a GitHub tarball (a gzip tar with one top-level `owner-repo-sha/`
 * directory) into `dir`, in-process, within size limits. Links that could
 * leave the tree are never created; node-tar already refuses `..` and
 * absolute entry paths.
 */
export async function extractTarball(
  source: ReadableStream<Uint8Array> | NodeJS.ReadableStream | Uint8Array,
  dir: string,
  limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS,
): Promise<ExtractResult> {
  await mkdir(dir, { recursive: true });
  const result: ExtractResult = { files: 0, bytes: 0, skipped: [] };
  const input =
    source instanceof Uint8Array
      ? Readable.from([source])
      : source instanceof ReadableStream
        ? Readable.fromWeb(source as import("node:stream/web").ReadableStream<Uint8Array>)
        : (source as NodeJS.ReadableStream);
  const extractor = tar.x({
    cwd: dir,
    strip: 1,
    gzip: true,
    preservePaths: false,
    noMtime: true,
    filter: (path, entry) => {
      const stat = entry as tar.ReadEntry;
      const relative = path.split("/").slice(1).join("/");
      if (stat.type === "SymbolicLink" || stat.type === "Link") {
        const target = stat.linkpath ?? "";
        if (isAbsolute(target) || normalize(target).split(/[\\/]/).includes("..")) {
          result.skipped.push({ path: relative, reason: "unsafe-link" });
          return false;
        }
        return true;
      }
      if (stat.type !== "File" && stat.type !== "OldFile" && stat.type !== "ContiguousFile")
        return true;
      const size = stat.size ?? 0;
      if (size > limits.maxFileBytes) {
        result.skipped.push({ path: relative, reason: "too-large" });
        return false;
      }
      if (result.files + 1 > limits.maxFiles || result.bytes + size > limits.maxTotalBytes) {
        result.skipped.push({ path: relative, reason: "over-limit" });
        return false;
      }
      result.files++;
      result.bytes += size;
      return true;
    },
  });
  await pipeline(input, extractor);
  return result;
}
