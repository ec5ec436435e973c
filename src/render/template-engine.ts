import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import type Handlebars from "handlebars";
import { findPackageRoot } from "../config/index.js";
import { registerHelpers } from "./register-helpers.js";

/** Renders one of the templates in `templates/*.hbs` by name (file name without `.hbs`). */
export interface TemplateEngine {
  render(name: string, context: object): string;
}

export interface TemplateEngineOptions {
  /** Where the shipped templates are; default: the package's `templates/`. */
  templatesDirectory?: string;
  /** An operator's restyled templates: a file here replaces the shipped one of the same name. */
  overrideDirectory?: string;
}

/**
 * An isolated Handlebars environment with our helpers. Every template is parsed
 * up front (a broken override fails at start-up, not mid-review), compiled once
 * and kept; each is also a partial under its name, so templates share pieces.
 */
export function createTemplateEngine(options: TemplateEngineOptions = {}): TemplateEngine {
  const handlebars = loadHandlebars().create();
  registerHelpers(handlebars);
  const directory =
    options.templatesDirectory ?? join(findPackageRoot(import.meta.url, "templates"), "templates");
  const sources = new Map<string, string>();
  for (const source of [directory, options.overrideDirectory]) {
    if (source === undefined) continue;
    if (!existsSync(source)) throw new Error(`template directory not found: ${source}`);
    for (const file of readdirSync(source)) {
      if (file.endsWith(".hbs")) {
        sources.set(basename(file, ".hbs"), readFileSync(join(source, file), "utf8"));
      }
    }
  }
  const templates = new Map<string, Handlebars.TemplateDelegate>();
  for (const [name, source] of sources) {
    try {
      // Parsed now so that a syntax error surfaces at start-up, with the file's name.
      handlebars.parse(source);
    } catch (error) {
      throw new Error(`template ${name}.hbs: ${error instanceof Error ? error.message : error}`);
    }
    // strict: a misspelt field in an override throws instead of rendering nothing.
    const template = handlebars.compile(source, { noEscape: true, strict: true });
    templates.set(name, template);
    handlebars.registerPartial(name, template);
  }
  return {
    render(name, context) {
      const template = templates.get(name);
      if (template === undefined) throw new Error(`unknown template: ${name}`);
      return template(context);
    },
  };
}

/**
 * Handlebars, required when the first engine is made rather than imported with this module:
 * the served app loads src/render at start but renders nothing before its first round, and
 * Handlebars with its compiler is ~2 MB of heap (its sources, inline source maps included, are
 * kept). Rendering is synchronous, so not `import()`: the package is CommonJS, and `require`
 * loads it the moment it is needed.
 */
function loadHandlebars(): typeof Handlebars {
  return createRequire(import.meta.url)("handlebars") as typeof Handlebars;
}

let shared: TemplateEngine | undefined;

/** The shipped templates, compiled on first use and then reused by every render. */
export function defaultTemplateEngine(): TemplateEngine {
  shared ??= createTemplateEngine();
  return shared;
}
