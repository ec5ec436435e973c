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

/** A non-negative count; models send it as a string too. */
const Count = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, "a number").transform(Number)])
  .pipe(z.number().int().nonnegative());

export const GetDiffArguments = z.object({
  path: z.string().min(1, "a changed file's path relative to the repository root"),
  /** First line of the file's patch to return, 0-based. */
  offset: Count.nullish().transform((value) => value ?? undefined),
  /** Lines of the patch to return. */
  limit: LineNumber.nullish().transform((value) => value ?? undefined),
});
export type GetDiffArguments = z.infer<typeof GetDiffArguments>;

export const FindFilesArguments = z.object({
  pattern: z.string().min(1, "a glob such as src/**/*.ts"),
  /** Only the files the pull request changes. */
  changed: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
});
export type FindFilesArguments = z.infer<typeof FindFilesArguments>;
