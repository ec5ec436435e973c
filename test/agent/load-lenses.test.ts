import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadLenses, packageLensesDirectory } from "../../src/agent/load-lenses.js";

describe("loadLenses", () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "gadfly-lenses-"));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  const lensFile = (id: string, frontMatter = `id: ${id}\ntitle: ${id} title\nemoji: "🧪"`) =>
    `---\n${frontMatter}\n---\n## Your lens: ${id}\n\nLook for ${id} problems.\n`;

  it("loads the five built-in lenses with their titles and emoji", async () => {
    const lenses = await loadLenses();
    expect(lenses.map(({ id, title, emoji }) => ({ id, title, emoji }))).toEqual([
      { id: "correctness", title: "Correctness", emoji: "🎯" },
      { id: "error-handling", title: "Error handling & edge cases", emoji: "🧯" },
      { id: "maintainability", title: "Code cleanliness & maintainability", emoji: "🧹" },
      { id: "performance", title: "Performance", emoji: "⚡" },
      { id: "security", title: "Security", emoji: "🔒" },
    ]);
    for (const lens of lenses) {
      expect(lens.prompt).not.toMatch(/^---/);
      expect(lens.prompt).toMatch(/## Severity for this lens/);
      for (const severity of ["high", "medium", "low", "nit"]) {
        expect(lens.prompt).toContain(`- **${severity}**:`);
      }
      expect(lens.prompt).toMatch(/## How to verify/);
      expect(lens.source.endsWith(`lenses/${lens.id}.md`)).toBe(true);
    }
  });

  it("adds the lenses of an extra directory and skips files starting with _", async () => {
    await writeFile(join(directory, "accessibility.md"), lensFile("accessibility"));
    await writeFile(join(directory, "_shared.md"), "not a lens");
    await writeFile(join(directory, "notes.txt"), "not a lens either");
    const lenses = await loadLenses({ extraDirectory: directory });
    expect(lenses.map((lens) => lens.id)).toContain("accessibility");
    expect(lenses).toHaveLength(6);
    expect(lenses.find((lens) => lens.id === "accessibility")?.prompt).toBe(
      "## Your lens: accessibility\n\nLook for accessibility problems.",
    );
  });

  it("refuses an extra lens that would replace a built-in one", async () => {
    await writeFile(join(directory, "security.md"), lensFile("security"));
    await expect(loadLenses({ extraDirectory: directory })).rejects.toThrow(
      /security\.md: field "id": lens "security" is already defined by .*lenses\/security\.md/,
    );
  });

  it.each([
    [
      "a missing field",
      lensFile("a11y", "id: a11y\ntitle: Accessibility"),
      /a11y\.md: field "emoji": /,
    ],
    [
      "an unknown field",
      lensFile("a11y", 'id: a11y\ntitle: T\nemoji: "x"\ncolour: red'),
      /a11y\.md: field "front matter": .*colour/,
    ],
    [
      "invalid YAML",
      lensFile("a11y", "id: a11y\ntitle: [unclosed\nemoji: x"),
      /a11y\.md: the front matter is not valid YAML/,
    ],
    ["no front matter", "# Accessibility\n\nLook for problems.\n", /a11y\.md: no front matter/],
    [
      "an id that is not the file name",
      lensFile("other"),
      /a11y\.md: field "id": "other" must match the file name \("a11y"\)/,
    ],
    [
      "an invalid id",
      lensFile("a11y", 'id: "A 11y"\ntitle: T\nemoji: x'),
      /a11y\.md: field "id": lowercase letters/,
    ],
    [
      "an empty prompt",
      "---\nid: a11y\ntitle: T\nemoji: x\n---\n\n",
      /a11y\.md: field "prompt": the lens has no prompt/,
    ],
  ])("names the file and the field for %s", async (_label, text, message) => {
    await writeFile(join(directory, "a11y.md"), text);
    await expect(loadLenses({ directory })).rejects.toThrow(message);
  });

  it("says which directory it cannot read", async () => {
    await expect(loadLenses({ directory: join(directory, "missing") })).rejects.toThrow(
      /cannot read the lens directory .*missing/,
    );
  });
});

describe("packageLensesDirectory", () => {
  it("walks up from a built module to the package root", async () => {
    const root = await mkdtemp(join(tmpdir(), "gadfly-package-"));
    try {
      await mkdir(join(root, "dist", "agent"), { recursive: true });
      await mkdir(join(root, "lenses"));
      await writeFile(join(root, "package.json"), "{}");
      const moduleUrl = pathToFileURL(join(root, "dist", "agent", "load-lenses.js")).href;
      expect(packageLensesDirectory(moduleUrl)).toBe(join(root, "lenses"));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
