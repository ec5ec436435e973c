import { existsSync } from "node:fs";
import { lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  DEFAULT_EXTRACT_LIMITS,
  extractTarball,
  unlistedSkipsNote,
} from "../../src/github/extract-tarball.js";

/** One ustar entry, built by hand: the test needs entry kinds and counts no real tree has. */
function ustarEntry(
  path: string,
  type: string,
  options: { link?: string; content?: string; owner?: number } = {},
) {
  const content = Buffer.from(options.content ?? "");
  const header = Buffer.alloc(512);
  header.write(path, 0, 100);
  header.write("0000644\0", 100);
  const owner = `${(options.owner ?? 0).toString(8).padStart(7, "0")}\0`;
  header.write(owner, 108);
  header.write(owner, 116);
  header.write(`${content.length.toString(8).padStart(11, "0")}\0`, 124);
  header.write("00000000000\0", 136);
  header.write("        ", 148);
  header.write(type, 156);
  header.write(options.link ?? "", 157, 100);
  header.write("ustar\0", 257);
  header.write("00", 263);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  const padding = Buffer.alloc((512 - (content.length % 512)) % 512);
  return Buffer.concat([header, content, padding]);
}

function tarball(entries: Buffer[]): Buffer {
  return gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)]));
}

const made: string[] = [];
async function outputDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gadfly-tar-limits-"));
  made.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("extractTarball entry limits", () => {
  it("has defaults: 100,000 entries of any kind, 1,000 skipped paths named", () => {
    expect(DEFAULT_EXTRACT_LIMITS.maxEntries).toBe(100_000);
    expect(DEFAULT_EXTRACT_LIMITS.maxListedSkips).toBe(1_000);
  });

  it("counts directories, symbolic links and hard links against the entry limit", async () => {
    const entries = [
      ustarEntry("top/", "5"),
      ustarEntry("top/a.txt", "0", { content: "a\n" }),
      ustarEntry("top/dir/", "5"),
      ustarEntry("top/sym", "2", { link: "a.txt" }),
      ustarEntry("top/hard", "1", { link: "top/a.txt" }),
      ustarEntry("top/later.txt", "0", { content: "b\n" }),
    ];
    const dir = await outputDir();
    const result = await extractTarball(tarball(entries), dir, { maxEntries: 4 });
    // top/, a.txt, dir/ and sym are taken; the hard link and the later file are past the limit.
    expect(result.entries).toBe(4);
    expect(result.files).toBe(1);
    expect(result.skipped).toEqual([
      { path: "hard", reason: "over-limit" },
      { path: "later.txt", reason: "over-limit" },
    ]);
    expect(existsSync(join(dir, "sym"))).toBe(true);
    expect(existsSync(join(dir, "hard"))).toBe(false);
  });

  it("never creates devices or FIFOs, and says so", async () => {
    const entries = [
      ustarEntry("top/", "5"),
      ustarEntry("top/fifo", "6"),
      ustarEntry("top/tty", "3"),
      ustarEntry("top/a.txt", "0", { content: "a\n" }),
    ];
    const dir = await outputDir();
    const result = await extractTarball(tarball(entries), dir);
    expect(result.skipped).toEqual([
      { path: "fifo", reason: "unsupported" },
      { path: "tty", reason: "unsupported" },
    ]);
    expect((await readdir(dir)).sort()).toEqual(["a.txt"]);
  });

  it("stops 100,000 directory and symlink entries at the limit and caps the skipped list", {
    timeout: 120_000,
  }, async () => {
    const count = 100_000;
    const entries = [ustarEntry("top/", "5"), ustarEntry("top/a.txt", "0", { content: "a\n" })];
    for (let index = 0; index < count / 2; index++) {
      entries.push(
        ustarEntry(`top/d${index}/`, "5"),
        ustarEntry(`top/s${index}`, "2", { link: "a.txt" }),
      );
    }
    const dir = await outputDir();
    const started = performance.now();
    const result = await extractTarball(tarball(entries), dir, { maxEntries: 1_000 });
    const ms = performance.now() - started;
    console.log(
      `tarball of ${count + 2} entries, limit 1,000: ${result.entries} taken, ${result.skipped.length} skipped listed, ${result.unlistedSkips} more counted, ${ms.toFixed(0)} ms`,
    );
    expect(result.entries).toBe(1_000);
    expect((await readdir(dir)).length).toBe(999);
    expect(result.skipped).toHaveLength(DEFAULT_EXTRACT_LIMITS.maxListedSkips);
    expect(result.skipped.every((skipped) => skipped.reason === "over-limit")).toBe(true);
    expect(result.skipped.length + result.unlistedSkips).toBe(count + 2 - 1_000);
    expect(unlistedSkipsNote(result.unlistedSkips)).toEqual([
      { path: "(98002 more entries of the tree left out: extraction limits)", reason: "too-large" },
    ]);
  });

  it("lists the entries node-tar refuses to write instead of losing them unnamed", async () => {
    const entries = [
      ustarEntry("top/", "5"),
      ustarEntry("top/sub/", "5"),
      ustarEntry("top/../escape.txt", "0", { content: "x" }),
      ustarEntry("top/l", "2", { link: "sub" }),
      ustarEntry("top/l/through-link.txt", "0", { content: "x" }),
      ustarEntry("top/hard", "1", { link: "top/missing" }),
      ustarEntry("top/a.txt", "0", { content: "a\n" }),
    ];
    const dir = await outputDir();
    const result = await extractTarball(tarball(entries), dir);
    expect(result.skipped).toEqual([
      { path: "../escape.txt", reason: "refused" },
      { path: "l/through-link.txt", reason: "refused" },
      { path: "hard", reason: "refused" },
    ]);
    expect((await readdir(dir)).sort()).toEqual(["a.txt", "l", "sub"]);
    expect(await readdir(join(dir, "sub"))).toEqual([]);
  });

  it("leaves what it writes owned by this process, whatever uid and gid the archive names", async () => {
    // As root, node-tar's default is to chown each entry to the archive's owner: a PR's
    // archive would choose who owns the files and directories we write. (Run as another
    // user, node-tar never chowns and this holds either way.)
    const stranger = 0o54321;
    const dir = await outputDir();
    await extractTarball(
      tarball([
        ustarEntry("top/", "5", { owner: stranger }),
        ustarEntry("top/sub/", "5", { owner: stranger }),
        ustarEntry("top/sub/a.txt", "0", { content: "a\n", owner: stranger }),
        ustarEntry("top/sub/link", "2", { link: "a.txt", owner: stranger }),
      ]),
      dir,
    );
    for (const path of ["sub", "sub/a.txt", "sub/link"]) {
      const info = await lstat(join(dir, path));
      expect({ path, uid: info.uid, gid: info.gid }).toEqual({
        path,
        uid: process.getuid?.(),
        gid: process.getgid?.(),
      });
    }
  });

  it("fails on a gzip bomb instead of decompressing it all, though every file in it is skipped", async () => {
    // 64 MiB of zeros in one file: well over maxFileBytes, so it is skipped, not written;
    // gzipped it is a few dozen kilobytes, so only a bound on what is read stops the work.
    const zeros = "\0".repeat(64 * 1024 * 1024);
    const bomb = tarball([
      ustarEntry("top/", "5"),
      ustarEntry("top/a.txt", "0", { content: "a\n" }),
      ustarEntry("top/zeros.bin", "0", { content: zeros }),
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const limits = { maxFileBytes: 1024 * 1024, maxArchiveBytes: 8 * 1024 * 1024 };
    await expect(extractTarball(bomb, await outputDir(), limits)).rejects.toThrow(
      /more than 8388608 bytes once decompressed/,
    );
    // The same archive within the bound extracts, the large file listed as skipped.
    const result = await extractTarball(bomb, await outputDir(), {
      ...limits,
      maxArchiveBytes: 128 * 1024 * 1024,
    });
    expect(result.skipped).toEqual([{ path: "zeros.bin", reason: "too-large" }]);
  });
});
