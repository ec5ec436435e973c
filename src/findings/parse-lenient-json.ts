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

function repairJson(text: string): string {
  const source = text.replace(/[\u201C\u201D]/g, '"');
  let output = "";
  let inString = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index] ?? "";
    if (inString) {
      output += char;
      if (char === "\\") {
        output += source[index + 1] ?? "";
        index++;
      } else if (char === '"') {
        inString = false;
      }
      continue;
    }
    if (char === '"') {
      inString = true;
      output += char;
    } else if (char === "/" && source[index + 1] === "/") {
      while (index < source.length && source[index] !== "\n") index++;
      output += "\n";
    } else if (char === "/" && source[index + 1] === "*") {
      const end = source.indexOf("*/", index + 2);
      index = end === -1 ? source.length : end + 1;
    } else if (char === ",") {
      let next = index + 1;
      while (next < source.length && /\s/.test(source[next] ?? "")) next++;
      if (source[next] !== "]" && source[next] !== "}") output += char;
    } else {
      output += char;
    }
  }
  return output;
}
