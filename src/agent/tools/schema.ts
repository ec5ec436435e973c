import { z } from "zod";

/** A 1-based line number; models sometimes send it as a string. */
const LineNumber = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, "a line number").transform(Number)])
  .pipe(z.number().int().positive());

/** Models send null for "not given" as often as they omit the key. */
const OptionalPath = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);

export const ReadFileArguments = z.object({
  path: z.string().min(1, "a file path relative to the repository root"),
  start_line: LineNumber.nullish().transform((value) => value ?? undefined),
  end_line: LineNumber.nullish().transform((value) => value ?? undefined),
});
export type ReadFileArguments = z.infer<typeof ReadFileArguments>;

export const GrepArguments = z.object({
  pattern: z.string().min(1, "a regular expression"),
  path: OptionalPath,
});
export type GrepArguments = z.infer<typeof GrepArguments>;

export const ListFilesArguments = z.object({
  path: OptionalPath,
});
export type ListFilesArguments = z.infer<typeof ListFilesArguments>;
