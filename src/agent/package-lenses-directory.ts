import { join } from "node:path";
import { findPackageRoot } from "../config/index.js";

/** The package's own `lenses/` directory, the same from src/ (tests, tsx) and dist/ (the built app). */
export function packageLensesDirectory(moduleUrl: string = import.meta.url): string {
  return join(findPackageRoot(moduleUrl, "lenses"), "lenses");
}
