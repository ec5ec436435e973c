export interface DockerInstruction {
  /** Upper case: FROM, RUN, COPY… */
  keyword: string;
  /** The rest of the instruction, continuation lines joined with spaces. */
  argument: string;
}

export interface DockerStage {
  /** The base image, e.g. `node:22-slim`. */
  image: string;
  /** The `AS` name, or null. */
  name: string | null;
  instructions: DockerInstruction[];
}

/**
 * Splits a Dockerfile into its stages and instructions: enough to check what it builds and
 * copies without a Docker engine. Comments and blank lines are dropped; a line ending in `\`
 * continues on the next.
 */
export function parseDockerfile(text: string): DockerStage[] {
  const logicalLines: string[] = [];
  let pending = "";
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line.startsWith("#")) continue;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    const whole = (pending + line).trim();
    pending = "";
    if (whole !== "") logicalLines.push(whole);
  }
  const stages: DockerStage[] = [];
  // ARGs before the first FROM, with their defaults: what a FROM's `${NAME}` stands for.
  const globalArgs = new Map<string, string>();
  for (const line of logicalLines) {
    const [keyword = "", ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), argument: rest.join(" ") };
    if (instruction.keyword === "ARG" && stages.length === 0) {
      const [name = "", value = ""] = instruction.argument.split("=");
      globalArgs.set(name, value);
      continue;
    }
    if (instruction.keyword === "FROM") {
      const [written = "", as, name] = rest;
      const image = written.replace(/\$\{(\w+)\}/g, (_, arg: string) => globalArgs.get(arg) ?? "");
      stages.push({
        image,
        name: as?.toUpperCase() === "AS" && name !== undefined ? name : null,
        instructions: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (stage === undefined) throw new Error(`${instruction.keyword} before any FROM`);
    stage.instructions.push(instruction);
  }
  return stages;
}
