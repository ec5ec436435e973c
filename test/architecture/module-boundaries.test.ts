import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * The module rules of src/, checked on the import statements themselves:
 * - each folder directly under src/ is a module with a front door, its index.ts; a file
 *   outside the folder imports only that index (run/ has two more doors, see FRONT_DOORS);
 * - the pure review core never imports the adapters (GitHub, the CLI, the process's
 *   start-up in boot/, the operations server) nor the entry file;
 * - a front door fits on a screen;
 * - no module cycle at load time.
 * Tests and bench/ may import a module's files directly.
 */

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

/** Extra doors: run/ keeps its queue and store apart so the CLI does not load pg, pg-boss or better-sqlite3. */
const FRONT_DOORS = new Set(["run/queue/index.ts", "run/store/index.ts"]);

/** Reviews a change without knowing where it came from. Holds today with no exception. */
const CORE = [
  "run",
  "llm",
  "agent",
  "findings",
  "consensus",
  "diff",
  "render",
  "time",
  "sandbox",
  "config",
  "accounting",
];
const ADAPTERS = ["github", "cli", "boot", "server", "main.ts"];

/** Lines of export statements an index.ts may have: one screen. */
const MAX_FRONT_DOOR_LINES = 60;

interface ImportEdge {
  from: string; // path under src/, with "/"
  to: string;
  specifier: string;
  /** Evaluated when `from` loads: not `import type`/`export type`, not a dynamic import(). */
  atLoad: boolean;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const underSrc = (path: string) => relative(SRC, path).split(sep).join("/");

/** The folder directly under src/, or the file name for app.ts and main.ts. */
const moduleOf = (file: string) => file.split("/")[0] ?? file;

const STATIC = /^\s*(import|export)\s+(type\s+)?(?:[^;"]*?\sfrom\s+)?"([^"]+)"/gm;
const DYNAMIC = /\bimport\(\s*"([^"]+)"\s*\)/g;

function importEdges(): ImportEdge[] {
  return sourceFiles(SRC).flatMap((path) => {
    const text = readFileSync(path, "utf8");
    const found = [
      ...[...text.matchAll(STATIC)].map((m) => ({ specifier: m[3] ?? "", atLoad: !m[2] })),
      ...[...text.matchAll(DYNAMIC)].map((m) => ({ specifier: m[1] ?? "", atLoad: false })),
    ];
    return found
      .filter(({ specifier }) => specifier.startsWith("."))
      .map(({ specifier, atLoad }) => ({
        from: underSrc(path),
        to: underSrc(resolve(dirname(path), specifier.replace(/\.js$/, ".ts"))),
        specifier,
        atLoad,
      }));
  });
}

const show = (edge: ImportEdge) => `src/${edge.from} imports "${edge.specifier}"`;

describe("module boundaries in src/", () => {
  const edges = importEdges();
  const folders = readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it("finds the imports it checks", () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(folders).toContain("render");
  });

  it("gives every folder under src/ a front door", () => {
    const missing = folders.filter(
      (folder) =>
        !sourceFiles(join(SRC, folder)).some((path) => underSrc(path) === `${folder}/index.ts`),
    );
    expect(missing, "folders under src/ without an index.ts").toEqual([]);
  });

  it("imports another module only through its index.ts", () => {
    const deep = edges.filter((edge) => {
      const target = moduleOf(edge.to);
      if (target === moduleOf(edge.from) || !folders.includes(target)) return false;
      return edge.to !== `${target}/index.ts` && !FRONT_DOORS.has(edge.to);
    });
    expect(
      deep.map(show),
      "deep imports: import from the folder's index.ts (export the symbol there if it is meant to be used outside)",
    ).toEqual([]);
  });

  it("keeps the review core free of the adapters", () => {
    const leaks = edges.filter(
      (edge) => CORE.includes(moduleOf(edge.from)) && ADAPTERS.includes(moduleOf(edge.to)),
    );
    expect(leaks.map(show), `the core (${CORE.join(", ")}) imports ${ADAPTERS.join(", ")}`).toEqual(
      [],
    );
  });

  it("keeps time/ a leaf: every module may wait or take a deadline without a cycle", () => {
    const leaves = edges.filter(
      (edge) =>
        moduleOf(edge.from) === "time" &&
        folders.includes(moduleOf(edge.to)) &&
        moduleOf(edge.to) !== "time",
    );
    expect(leaves.map(show)).toEqual([]);
  });

  it("keeps each front door on one screen", () => {
    const doors = [...folders.map((folder) => `${folder}/index.ts`), ...FRONT_DOORS].filter(
      (door) => existsSync(join(SRC, door)), // a missing one fails the test above
    );
    const sizes = doors.map((door) => {
      const lines = readFileSync(join(SRC, door), "utf8").split("\n");
      let inExport = false;
      let count = 0;
      for (const line of lines) {
        if (/^export\b/.test(line)) inExport = true;
        if (inExport) count += 1;
        if (inExport && /;\s*$/.test(line)) inExport = false;
      }
      return { door, count };
    });
    const tooBig = sizes.filter(({ count }) => count > MAX_FRONT_DOOR_LINES);
    expect(
      tooBig.map(({ door, count }) => `src/${door}: ${count} export lines`),
      `front doors over ${MAX_FRONT_DOOR_LINES} export lines; all sizes: ${sizes.map(({ door, count }) => `${door} ${count}`).join(", ")}`,
    ).toEqual([]);
  });

  it("has no module cycle at load time", () => {
    // A cycle through a front door risks a binding read before its module has run.
    const next = new Map<string, string[]>();
    for (const edge of edges.filter((e) => e.atLoad)) {
      next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
    }
    const cycles = stronglyConnected(next);
    expect(
      cycles.map((files) => files.sort().join(" -> ")),
      "import cycles at load time",
    ).toEqual([]);
  });
});

/** Groups of two or more files that import each other, directly or through others (Tarjan). */
function stronglyConnected(next: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) visit(to);
      if (onStack.has(to)) low.set(file, Math.min(low.get(file) ?? 0, low.get(to) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) groups.push(group);
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return groups;
}
