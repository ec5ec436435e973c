/**
 * The `name=value` and `name<<DELIMITER … DELIMITER` lines a step appends to its GITHUB_OUTPUT
 * or GITHUB_ENV file, read as the runner reads them (a later value of a name wins).
 */
export function readFileCommands(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (line === "") continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc !== null) {
      const [, name = "", delimiter = ""] = heredoc;
      const end = lines.indexOf(delimiter, index + 1);
      if (end === -1) throw new Error(`no closing ${delimiter} for ${name}`);
      values[name] = lines.slice(index + 1, end).join("\n");
      index = end;
      continue;
    }
    const equals = line.indexOf("=");
    if (equals <= 0) throw new Error(`invalid file command line: ${line}`);
    values[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return values;
}
