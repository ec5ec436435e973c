import type { LensMetadata } from "./lens-metadata.js";
import type { TemplateEngine } from "./template-engine.js";

/** What every render function accepts. */
export interface RenderOptions {
  /** Default: the shipped templates (`defaultTemplateEngine()`). */
  engine?: TemplateEngine;
  /**
   * Titles and emoji by lens id, from the lens definitions (`lenses/*.md`, a repository's
   * custom lenses); a lens missing here is titled from its id.
   */
  lenses?: Readonly<Record<string, LensMetadata>>;
  /** Longest body to produce, in UTF-16 code units; default and ceiling in body-limit.ts. */
  maxLength?: number;
}
