import type { LensMetadata } from "./lens-metadata.js";
import type { TemplateEngine } from "./template-engine.js";

/** What every render function accepts. */
export interface RenderOptions {
  /** Default: the shipped templates (`defaultTemplateEngine()`). */
  engine?: TemplateEngine;
  /** Titles and emoji of custom lenses (or restyled built-ins), by lens id. */
  lenses?: Readonly<Record<string, LensMetadata>>;
  /** Longest body to produce, in UTF-16 code units; default and ceiling in body-limit.ts. */
  maxLength?: number;
}
