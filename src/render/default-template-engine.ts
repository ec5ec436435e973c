import { createTemplateEngine, type TemplateEngine } from "./template-engine.js";

let shared: TemplateEngine | undefined;

/** The shipped templates, compiled on first use and then reused by every render. */
export function defaultTemplateEngine(): TemplateEngine {
  shared ??= createTemplateEngine();
  return shared;
}
