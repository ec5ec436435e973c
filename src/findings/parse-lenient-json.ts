/**
 * JSON.parse that forgives what models commonly emit: trailing commas,
 * // and /* *\/ comments, and typographic quotes around keys and strings.
 * Throws the second parser error when the text still does not parse.
 */
export function parseLenientJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return JSON.parse(repairJson(text));
  }
}

/**
 * One pass over the text, copying kept runs as slices (building the output a
 * character at a time makes V8 flatten ever longer ropes on megabytes of model
 * output). Each character is looked at a bounded number of times.
 */
function repairJson(text: string): string {
  const source = text.replace(/[\u201C\u201D]/g, '"');
  const kept: string[] = [];
  let runStart = 0;
  const cut = (from: number, to: number) => {
    kept.push(source.slice(runStart, from));
    runStart = to;
  };
  let index = 0;
  while (index < source.length) {
    const char = source[index];
    if (char === '"') {
      index = endOfString(source, index + 1);
    } else if (char === "/" && source[index + 1] === "/") {
      const newline = source.indexOf("\n", index);
      const end = newline === -1 ? source.length : newline;
      cut(index, end);
      index = end;
    } else if (char === "/" && source[index + 1] === "*") {
      const close = source.indexOf("*/", index + 2);
      const end = close === -1 ? source.length : close + 2;
      cut(index, end);
      index = end;
    } else if (char === ",") {
      let next = index + 1;
      while (next < source.length && /\s/.test(source[next] ?? "")) next++;
      if (source[next] === "]" || source[next] === "}") cut(index, index + 1);
      index = next;
    } else {
      index++;
    }
  }
  kept.push(source.slice(runStart));
  return kept.join("");
}

/** The index just past the closing quote of a string whose content starts at `from`. */
function endOfString(source: string, from: number): number {
  let index = from;
  while (index < source.length) {
    const char = source[index];
    if (char === "\\") index += 2;
    else if (char === '"') return index + 1;
    else index++;
  }
  return source.length;
}
