export interface CopyInstruction {
  /** The stage copied from (`--from=`), or null for the build context. */
  from: string | null;
  sources: string[];
  destination: string;
}

/** The parts of a shell-form `COPY [--flag=value…] source… destination`. */
export function parseCopyInstruction(argument: string): CopyInstruction {
  const words = argument.split(/\s+/);
  const flags = words.filter((word) => word.startsWith("--"));
  const paths = words.filter((word) => !word.startsWith("--"));
  const destination = paths.pop();
  if (destination === undefined || paths.length === 0) throw new Error(`bad COPY: ${argument}`);
  const from = flags.find((flag) => flag.startsWith("--from="))?.slice("--from=".length) ?? null;
  return { from, sources: paths, destination };
}
