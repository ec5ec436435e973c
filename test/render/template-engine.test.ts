import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { findPackageRoot } from "../../src/config/find-package-root.js";
import { renderInlineComment } from "../../src/render/render-inline-comment.js";
import { renderStatusBoard } from "../../src/render/render-status-board.js";
import { createTemplateEngine } from "../../src/render/template-engine.js";
import { referenceClusters, runningStatus } from "./reference-page.js";

const directories: string[] = [];
function templateDirectory(files: Record<string, string>): string {
  const directory = mkdtempSync(join(tmpdir(), "gadfly-templates-"));
  directories.push(directory);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(directory, name), text);
  return directory;
}

afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

describe("createTemplateEngine", () => {
  it("finds the package's templates from a module under src/ or dist/", () => {
    const root = templateDirectory({ "package.json": "{}" });
    for (const directory of ["templates", "dist/render", "src/render"]) {
      mkdirSync(join(root, directory), { recursive: true });
    }
    // A package.json without templates beside it (e.g. dist's own) is not the root.
    writeFileSync(join(root, "dist", "package.json"), '{"type":"module"}');
    for (const module of ["dist/render/engine.js", "src/render/engine.ts"]) {
      expect(findPackageRoot(pathToFileURL(join(root, module)).href, "templates")).toBe(root);
    }
    expect(() => findPackageRoot(pathToFileURL(join(tmpdir(), "x.js")).href, "nope")).toThrow(
      /no package.json/,
    );
  });

  it("lets an operator restyle one template and keeps the shipped rest", () => {
    const overrideDirectory = templateDirectory({
      "inline-comment.hbs": '{{emoji}} {{inline title}} ({{plural agreeing "model"}})',
    });
    const engine = createTemplateEngine({ overrideDirectory });
    const [cluster] = referenceClusters();
    if (cluster === undefined) throw new Error("fixture");
    expect(renderInlineComment(cluster, { engine })).toBe(
      "🟡 Leading-marker char class `[\\s>#*_+-]*` duplicated between summaryLead and citationLabelRe (comment admits the copy); hoist a shared const (3 models)",
    );
    expect(renderStatusBoard(runningStatus(), { engine })).toContain("live review status");
  });

  it("names the file of a template that does not parse", () => {
    const overrideDirectory = templateDirectory({ "status-board.hbs": "{{#if x}}unclosed" });
    expect(() => createTemplateEngine({ overrideDirectory })).toThrow(/status-board\.hbs/);
  });

  it("refuses a restyled template that drops its marker line", () => {
    const overrideDirectory = templateDirectory({ "status-board.hbs": "## Status\n" });
    const engine = createTemplateEngine({ overrideDirectory });
    expect(() => renderStatusBoard(runningStatus(), { engine })).toThrow(
      /must start with the line <!-- gadfly-status-board -->/,
    );
  });

  it("throws on a misspelt field instead of rendering nothing", () => {
    const overrideDirectory = templateDirectory({
      "status-board.hbs": "<!-- gadfly-status-board -->\n{{roundNumber}}",
    });
    const engine = createTemplateEngine({ overrideDirectory });
    expect(() => renderStatusBoard(runningStatus(), { engine })).toThrow(/roundNumber/);
  });

  it("throws on an unknown template or a missing directory", () => {
    expect(() => createTemplateEngine().render("nope", {})).toThrow(/unknown template: nope/);
    expect(() => createTemplateEngine({ overrideDirectory: "/nonexistent/gadfly" })).toThrow(
      /not found/,
    );
  });
});
