import { gzipSync } from "node:zlib";

const blockSize = 512;

/**
 * A gzipped ustar archive laid out like GitHub's codeload tarballs: a pax
 * global header carrying the commit SHA, then everything under `prefix/`.
 */
export function buildTarball(
  prefix: string,
  files: ReadonlyMap<string, Buffer>,
  commitSha: string,
  modifiedAt: Date,
): Buffer {
  const mtime = Math.floor(modifiedAt.getTime() / 1000);
  const blocks: Buffer[] = [];
  blocks.push(...entry("pax_global_header", "g", paxRecords({ comment: commitSha }), mtime));
  const directories = new Set<string>([`${prefix}/`]);
  for (const path of files.keys()) {
    const parts = path.split("/");
    for (let depth = 1; depth < parts.length; depth++) {
      directories.add(`${prefix}/${parts.slice(0, depth).join("/")}/`);
    }
  }
  for (const directory of [...directories].sort()) {
    blocks.push(...entry(directory, "5", Buffer.alloc(0), mtime));
  }
  for (const path of [...files.keys()].sort()) {
    blocks.push(...entry(`${prefix}/${path}`, "0", files.get(path) ?? Buffer.alloc(0), mtime));
  }
  blocks.push(Buffer.alloc(blockSize * 2));
  return gzipSync(Buffer.concat(blocks));
}

function entry(path: string, type: string, content: Buffer, mtime: number): Buffer[] {
  const blocks: Buffer[] = [];
  const split = splitPath(path);
  if (split === undefined) {
    // Too long for ustar's name + prefix fields: a pax header carries the path.
    const records = paxRecords({ path });
    blocks.push(header("././@PaxHeader", "", "x", records.length, mtime), padded(records));
  }
  const { name, prefix } = split ?? { name: path.slice(0, 100), prefix: "" };
  blocks.push(header(name, prefix, type, content.length, mtime));
  if (content.length > 0) blocks.push(padded(content));
  return blocks;
}

function splitPath(path: string): { name: string; prefix: string } | undefined {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: "" };
  // Split at a slash so that the name fits in 100 bytes and the prefix in 155.
  for (let index = path.indexOf("/"); index !== -1; index = path.indexOf("/", index + 1)) {
    const prefix = path.slice(0, index);
    const name = path.slice(index + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name !== "") {
      return { name, prefix };
    }
  }
  return undefined;
}

function header(name: string, prefix: string, type: string, size: number, mtime: number): Buffer {
  const block = Buffer.alloc(blockSize);
  block.write(name, 0, 100, "utf8");
  block.write(octal(type === "5" ? 0o755 : 0o644, 8), 100, "ascii");
  block.write(octal(0, 8), 108, "ascii");
  block.write(octal(0, 8), 116, "ascii");
  block.write(octal(size, 12), 124, "ascii");
  block.write(octal(mtime, 12), 136, "ascii");
  block.write(" ".repeat(8), 148, "ascii");
  block.write(type, 156, "ascii");
  block.write("ustar\u000000", 257, "ascii");
  block.write("root", 265, "ascii");
  block.write("root", 297, "ascii");
  block.write(prefix, 345, 155, "utf8");
  let checksum = 0;
  for (const byte of block) checksum += byte;
  block.write(`${checksum.toString(8).padStart(6, "0")}\u0000 `, 148, "ascii");
  return block;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\u0000`;
}

function padded(content: Buffer): Buffer {
  const remainder = content.length % blockSize;
  return remainder === 0 ? content : Buffer.concat([content, Buffer.alloc(blockSize - remainder)]);
}

// Each pax record is "<length> <key>=<value>\n", its length counting itself.
function paxRecords(values: Record<string, string>): Buffer {
  const records = Object.entries(values).map(([key, value]) => {
    const body = ` ${key}=${value}\n`;
    let length = Buffer.byteLength(body) + 1;
    while (String(length).length + Buffer.byteLength(body) !== length) {
      length = String(length).length + Buffer.byteLength(body);
    }
    return `${length}${body}`;
  });
  return Buffer.from(records.join(""), "utf8");
}
