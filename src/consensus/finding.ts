import type { LensFinding } from "../findings/index.js";

/** A finding attributed to the model and lens that reported it: the unit of clustering. */
export interface Finding extends LensFinding {
  /** The model id from the app config (what the board shows). */
  model: string;
  /** The lens id (security, correctness, … or a repo's own). */
  lens: string;
}
