import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tar from "tar";
import { describe, expect, it } from "vitest";
import { extractTarball } from "../../src/github/extract-tarball.js";

async function githubLikeTarball(): Promise<Uint8Array> {
  const root = await mkdtemp(join(tmpdir(), "gadfly-tar-src-"));
  const top = join(root, "octo-repo-abc1234");
  await mkdir(join(top, "src"), { recursive: true });
  await writeFile(join(top, "src", "a.ts"), "export const a = 1;\n");
  await writeFile(join(top, "README.md"), "# repo\n");
  await writeFile(join(top, "big.bin"), Buffer.alloc(64 * 1024, 1));
  await symlink("/etc/passwd", join(top, "passwd-link"));
  await symlink("../../outside", join(top, "src", "up-link"));
  await symlink("a.ts", join(top, "src", "alias.ts"));
  const chunks: Buffer[] = [];
  const stream = tar.c({ cwd: root, gzip: true, portable: true }, ["octo-repo-abc1234"]);
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

describe("extractTarball", () => {
  it("strips the top-level directory, skips oversized files and links that leave the tree", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gadfly-tar-out-"));
    const result = await extractTarball(await githubLikeTarball(), dir, {
      maxFileBytes: 32 * 1024,
      maxTotalBytes: 1024 * 1024,
      maxFiles: 100,
    });
    expect(await readFile(join(dir, "src", "a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(existsSync(join(dir, "big.bin"))).toBe(false);
    expect(existsSync(join(dir, "passwd-link"))).toBe(false);
    expect(existsSync(join(dir, "src", "up-link"))).toBe(false);
    expect(await readFile(join(dir, "src", "alias.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(result.skipped.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: "big.bin", reason: "too-large" },
      { path: "passwd-link", reason: "unsafe-link" },
      { path: "src/up-link", reason: "unsafe-link" },
    ]);
    expect(result.files).toBe(2);
  });

  it("stops writing at the total-size limit and says what it left out", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gadfly-tar-out-"));
    const result = await extractTarball(await githubLikeTarball(), dir, {
      maxFileBytes: 1024 * 1024,
      maxTotalBytes: 30,
      maxFiles: 100,
    });
    expect(result.bytes).toBeLessThanOrEqual(30);
    expect(result.skipped.filter((entry) => entry.reason === "over-limit").length).toBeGreaterThan(
      0,
    );
  });
});
