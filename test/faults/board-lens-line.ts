/** The status board's line for one model's lens, e.g. `- ⚠️ **security** — timed out …`. */
export function boardLensLine(board: string, model: string, lens: string): string | undefined {
  const lines = board.split("\n");
  const heading = lines.findIndex((line) => line.startsWith(`#### \`${model}\``));
  if (heading === -1) return undefined;
  for (const line of lines.slice(heading + 1)) {
    if (line.startsWith("#### ")) return undefined;
    if (line.startsWith(`- `) && line.includes(`**${lens}**`)) return line;
  }
  return undefined;
}
