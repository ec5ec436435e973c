import { mkdir } from "node:fs/promises";
import { isAbsolute, normalize } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import type { ReadEntry } from "tar";

export interface ExtractLimits {
  /** Total bytes of regular files written. */
  maxTotalBytes: number;
  /** Files larger than this are skipped (listed) rather than written. */
  maxFileBytes: number;
  /** Regular files written. */
  maxFiles: number;
  /**
   * Entries of every kind taken from the archive: files, directories, symbolic
   * and hard links, and any other type. The archive is the pull request's tree,
   * so its author chooses how many directories and links it holds; each one is
   * a filesystem operation.
   */
  maxEntries: number;
  /** Skipped paths listed one by one; past this they are only counted (`unlistedSkips`). */
  maxListedSkips: number;
  /**
   * Bytes of the decompressed archive read, skipped entries included. The limits above
   * bound what is written; this bounds the work: a file over `maxFileBytes` is skipped but
   * its bytes are still decompressed and read past, and a few kilobytes of gzip can hold
   * gigabytes of zeros. Past it the extraction fails (the caller falls back).
   */
  maxArchiveBytes: number;
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxTotalBytes: 512 * 1024 * 1024,
  maxFileBytes: 5 * 1024 * 1024,
  maxFiles: 50_000,
  maxEntries: 100_000,
  maxListedSkips: 1_000,
  maxArchiveBytes: 2 * 1024 * 1024 * 1024,
};

/**
 * Why an entry was not written. `refused`: it passed our filter, but node-tar would not
 * write it (a path with `..`, a path through a link, a hard link to nothing) or the write
 * failed; node-tar only warns about those, so without this they would vanish unlisted.
 */
export type SkipReason = "too-large" | "unsafe-link" | "over-limit" | "unsupported" | "refused";

export interface ExtractResult {
  files: number;
  bytes: number;
  /** Entries of every kind taken (written or created), the top-level directory included. */
  entries: number;
  /**
   * Paths skipped: over the per-file size, links leaving the tree, entry types
   * we never create (devices, FIFOs), past a limit, or refused by node-tar. At most
   * `maxListedSkips` of them; the rest are counted in `unlistedSkips`.
   */
  skipped: { path: string; reason: SkipReason }[];
  /** Skipped entries beyond the listed ones: never silently lost, but not named. */
  unlistedSkips: number;
}

/**
 * The line a snapshot's "not reviewed" list gets for skipped entries past the
 * listed ones: any changed file may be among them, so the list says how many.
 */
export function unlistedSkipsNote(unlistedSkips: number): { path: string; reason: "too-large" }[] {
  if (unlistedSkips === 0) return [];
  return [
    {
      path: `(${unlistedSkips} more entries of the tree left out: extraction limits)`,
      reason: "too-large",
    },
  ];
}

/** Entry types node-tar writes as regular files. */
const FILE_TYPES = new Set(["File", "OldFile", "ContiguousFile"]);
/** Entry types we create besides files (links are checked first). */
const CREATED_TYPES = new Set(["Directory", "GNUDumpDir", "SymbolicLink", "Link"]);

/**
 * Extracts a GitHub tarball (a gzip tar with one top-level `owner-repo-sha/`
 * directory) into `dir`, in-process, within size limits. Links that could
 * leave the tree are never created; node-tar already refuses `..` and
 * absolute entry paths.
 */
export async function extractTarball(
  source: ReadableStream<Uint8Array> | NodeJS.ReadableStream | Uint8Array,
  dir: string,
  limits: Partial<ExtractLimits> = DEFAULT_EXTRACT_LIMITS,
): Promise<ExtractResult> {
  // Loaded at the first extraction, not at start: node-tar is some 0.5 MB of heap that a
  // serving process would otherwise hold from boot.
  const tar = await import("tar");
  await mkdir(dir, { recursive: true });
  const settings = { ...DEFAULT_EXTRACT_LIMITS, ...limits };
  const result: ExtractResult = { files: 0, bytes: 0, entries: 0, skipped: [], unlistedSkips: 0 };
  const skip = (path: string, reason: SkipReason): false => {
    if (result.skipped.length < settings.maxListedSkips) result.skipped.push({ path, reason });
    else result.unlistedSkips++;
    return false;
  };
  const extractor = tar.x({
    cwd: dir,
    strip: 1,
    preservePaths: false,
    noMtime: true,
    // node-tar's default as root is to chown every entry to the archive's uid/gid: a PR's
    // archive must not choose who owns what we write.
    preserveOwner: false,
    // Synchronous writes: async node-tar sends each of its ~6 fs calls per file (lstat, the
    // parent's mkdir and lstat, open, write, close) through the thread pool, and those
    // hand-offs cost more CPU than the calls. Each chunk the gunzip emits (16 KiB) is
    // unpacked before the next one comes, so the event loop is held for one chunk at a time.
    sync: true,
    onwarn: (code, _message, data) => {
      // An entry node-tar would not write; it was counted as taken, which only errs on the
      // safe side of the limits.
      const entry = data.entry as ReadEntry | undefined;
      if (code === "TAR_ENTRY_ERROR" && entry !== undefined) skip(String(entry.path), "refused");
    },
    filter: (path, entry) => admitEntry(path, entry as ReadEntry, settings, result, skip),
  });
  await unpackInto(toNodeStream(source), extractor, settings.maxArchiveBytes);
  return result;
}

function toNodeStream(
  source: ReadableStream<Uint8Array> | NodeJS.ReadableStream | Uint8Array,
): NodeJS.ReadableStream {
  if (source instanceof Uint8Array) return Readable.from([source]);
  if (source instanceof ReadableStream) {
    return Readable.fromWeb(source as import("node:stream/web").ReadableStream<Uint8Array>);
  }
  return source;
}

/** Whether node-tar writes an entry, counting it against the limits (or listing why not). */
function admitEntry(
  path: string,
  entry: ReadEntry,
  settings: ExtractLimits,
  result: ExtractResult,
  skip: (path: string, reason: SkipReason) => false,
): boolean {
  const relative = path.split("/").slice(1).join("/");
  const type = String(entry.type);
  const isFile = FILE_TYPES.has(type);
  if (!isFile && !CREATED_TYPES.has(type)) return skip(relative, "unsupported");
  if (type === "SymbolicLink" || type === "Link") {
    const target = entry.linkpath ?? "";
    if (isAbsolute(target) || normalize(target).split(/[\\/]/).includes("..")) {
      return skip(relative, "unsafe-link");
    }
  }
  const size = isFile ? (entry.size ?? 0) : 0;
  if (size > settings.maxFileBytes) return skip(relative, "too-large");
  if (
    result.entries + 1 > settings.maxEntries ||
    (isFile && result.files + 1 > settings.maxFiles) ||
    result.bytes + size > settings.maxTotalBytes
  ) {
    return skip(relative, "over-limit");
  }
  result.entries++;
  if (isFile) result.files++;
  result.bytes += size;
  return true;
}

/** What `unpackInto` needs of node-tar's sync extractor. */
interface SyncExtractor {
  on(event: "error", listener: (error: unknown) => void): unknown;
  write(chunk: Buffer): unknown;
  end(): unknown;
}

/** Gunzips `input` into the extractor, at most `maxArchiveBytes` decompressed; the first error wins. */
async function unpackInto(
  input: NodeJS.ReadableStream,
  extractor: SyncExtractor,
  maxArchiveBytes: number,
): Promise<void> {
  // The first error wins: pipeline answers a stage that throws with an AbortError of its own.
  let failure: unknown;
  extractor.on("error", (error: unknown) => {
    failure ??= error;
  });
  let seen = 0;
  const unpack = async (decompressed: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of decompressed) {
      // The bound on work: counted here rather than in a Transform of its own.
      seen += chunk.length;
      if (seen > maxArchiveBytes) {
        throw new Error(`the archive holds more than ${maxArchiveBytes} bytes once decompressed`);
      }
      // The sync extractor has written this chunk's entries when write returns.
      extractor.write(chunk);
      if (failure !== undefined) throw failure;
    }
    // Not piped: node-tar's sync unpacker never emits 'finish' once it refused an entry (its
    // pending count goes below zero), and it has nothing left to wait for once end returns.
    extractor.end();
    if (failure !== undefined) throw failure;
  };
  try {
    await pipeline(input, createGunzip(), async (decompressed: AsyncIterable<Buffer>) => {
      try {
        await unpack(decompressed);
      } catch (error) {
        failure ??= error;
        throw error;
      }
    });
  } catch (error) {
    throw failure ?? error;
  }
}
