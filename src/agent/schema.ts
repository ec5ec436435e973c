import { z } from "zod";
import { LensId } from "../config/index.js";

/** The YAML front matter of a lens file (`lenses/<id>.md`). */
export const LensFrontMatter = z.strictObject({
  id: LensId,
  /** The heading the lens gets, e.g. "Error handling & edge cases". */
  title: z.string().trim().min(1).max(80),
  /** Shown before the title, e.g. 🧯. */
  emoji: z.string().trim().min(1).max(16),
});
export type LensFrontMatter = z.infer<typeof LensFrontMatter>;

/** A lens ready to review with: its front matter, its prompt and where it came from. */
export const LensDefinition = LensFrontMatter.extend({
  /** The markdown body: what the lens hunts for and its severity rubric. */
  prompt: z.string().trim().min(1, "the lens has no prompt after its front matter"),
  /** The file it was loaded from, for error messages. */
  source: z.string(),
});
export type LensDefinition = z.infer<typeof LensDefinition>;
