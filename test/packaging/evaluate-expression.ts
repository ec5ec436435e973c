/**
 * GitHub Actions expressions (`${{ … }}` and `if:`), the subset a composite action uses:
 * literals, property paths (`inputs.fail-on`, `steps.target.outputs.skip`, `a['b']`), `!`,
 * `==`, `!=`, `<`, `<=`, `>`, `>=`, `&&`, `||`, parentheses, and the status functions plus
 * `contains`, `startsWith`, `endsWith`, `format`, `toJSON`, `fromJSON`. Anything else throws,
 * so an action that starts to use more fails this test's runner instead of being misread.
 *
 * Semantics as GitHub documents them: string equality ignores case, operands of different
 * types are compared as numbers, `&&`/`||` return an operand, a missing property is null.
 */

export type ExpressionValue =
  | string
  | number
  | boolean
  | null
  | ExpressionObject
  | ExpressionValue[];
export interface ExpressionObject {
  [key: string]: ExpressionValue | undefined;
}

export interface ExpressionContext {
  contexts: Record<string, ExpressionValue>;
  /** The job's status so far, for success(), failure(), always() and cancelled(). */
  status: "success" | "failure";
}

type Token =
  | { kind: "literal"; value: ExpressionValue }
  | { kind: "name"; value: string }
  | { kind: "punctuation"; value: string };

const PUNCTUATION = [
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "!",
  "<",
  ">",
  "(",
  ")",
  "[",
  "]",
  ",",
  ".",
];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    const rest = source.slice(index);
    const space = /^\s+/.exec(rest);
    if (space !== null) {
      index += space[0].length;
      continue;
    }
    if (rest.startsWith("'")) {
      let end = 1;
      let value = "";
      for (;;) {
        const quote = rest.indexOf("'", end);
        if (quote === -1) throw new Error(`unterminated string in ${source}`);
        value += rest.slice(end, quote);
        if (rest[quote + 1] === "'") {
          value += "'";
          end = quote + 2;
        } else {
          end = quote + 1;
          break;
        }
      }
      tokens.push({ kind: "literal", value });
      index += end;
      continue;
    }
    const number = /^-?(0x[0-9a-f]+|\d+(\.\d+)?(e[+-]?\d+)?)/i.exec(rest);
    if (number !== null) {
      tokens.push({ kind: "literal", value: Number(number[0]) });
      index += number[0].length;
      continue;
    }
    // Property names may hold dashes (`inputs.fail-on`, `steps.install-key`).
    const name = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(rest);
    if (name !== null) {
      const word = name[0];
      if (word === "true" || word === "false")
        tokens.push({ kind: "literal", value: word === "true" });
      else if (word === "null") tokens.push({ kind: "literal", value: null });
      else tokens.push({ kind: "name", value: word });
      index += word.length;
      continue;
    }
    const punctuation = PUNCTUATION.find((candidate) => rest.startsWith(candidate));
    if (punctuation === undefined) throw new Error(`unexpected "${rest[0]}" in ${source}`);
    tokens.push({ kind: "punctuation", value: punctuation });
    index += punctuation.length;
  }
  return tokens;
}

function toNumber(value: ExpressionValue): number {
  if (value === null) return 0;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  if (typeof value === "string") return value.trim() === "" ? 0 : Number(value);
  return Number.NaN;
}

export function truthy(value: ExpressionValue): boolean {
  return !(value === false || value === null || value === "" || value === 0 || Number.isNaN(value));
}

function looselyEqual(left: ExpressionValue, right: ExpressionValue): boolean {
  if (typeof left === "string" && typeof right === "string") {
    return left.toLowerCase() === right.toLowerCase();
  }
  // Objects and arrays are equal only to themselves; null is a primitive here (it coerces to 0).
  if (
    (left !== null && typeof left === "object") ||
    (right !== null && typeof right === "object")
  ) {
    return left === right;
  }
  if (typeof left === typeof right) return left === right;
  return toNumber(left) === toNumber(right);
}

function compare(left: ExpressionValue, right: ExpressionValue): number {
  if (typeof left === "string" && typeof right === "string") {
    return left.toLowerCase().localeCompare(right.toLowerCase());
  }
  return toNumber(left) - toNumber(right);
}

/** A value as `${{ }}` writes it into a string. */
export function stringify(value: ExpressionValue): string {
  if (value === null) return "";
  if (typeof value === "object") return JSON.stringify(value, null, 2);
  return String(value);
}

function property(target: ExpressionValue, key: string): ExpressionValue {
  if (target === null || typeof target !== "object") return null;
  if (Array.isArray(target)) {
    const index = Number(key);
    return Number.isInteger(index) ? (target[index] ?? null) : null;
  }
  // Context keys are case-insensitive on GitHub.
  const found = Object.keys(target).find(
    (candidate) => candidate.toLowerCase() === key.toLowerCase(),
  );
  return found === undefined ? null : (target[found] ?? null);
}

export function evaluateExpression(source: string, context: ExpressionContext): ExpressionValue {
  const tokens = tokenize(source);
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const isPunctuation = (value: string): boolean => {
    const token = peek();
    return token?.kind === "punctuation" && token.value === value;
  };
  const expect = (value: string): void => {
    if (!isPunctuation(value)) throw new Error(`expected "${value}" in ${source}`);
    position++;
  };

  const call = (name: string, args: ExpressionValue[]): ExpressionValue => {
    switch (name.toLowerCase()) {
      case "success":
        return context.status === "success";
      case "failure":
        return context.status === "failure";
      case "always":
        return true;
      case "cancelled":
        return false;
      case "contains": {
        const [haystack = null, needle = null] = args;
        if (Array.isArray(haystack)) return haystack.some((item) => looselyEqual(item, needle));
        return stringify(haystack).toLowerCase().includes(stringify(needle).toLowerCase());
      }
      case "startswith":
        return stringify(args[0] ?? null)
          .toLowerCase()
          .startsWith(stringify(args[1] ?? null).toLowerCase());
      case "endswith":
        return stringify(args[0] ?? null)
          .toLowerCase()
          .endsWith(stringify(args[1] ?? null).toLowerCase());
      case "format":
        return stringify(args[0] ?? null).replace(/\{(\d+)\}/g, (_, index: string) =>
          stringify(args[Number(index) + 1] ?? null),
        );
      case "tojson":
        return JSON.stringify(args[0] ?? null, null, 2);
      case "fromjson":
        return JSON.parse(stringify(args[0] ?? null)) as ExpressionValue;
      default:
        throw new Error(`function ${name}() is not simulated (in ${source})`);
    }
  };

  const primary = (): ExpressionValue => {
    const token = peek();
    if (token === undefined) throw new Error(`unexpected end of ${source}`);
    position++;
    let value: ExpressionValue;
    if (token.kind === "literal") {
      value = token.value;
    } else if (token.kind === "name") {
      if (isPunctuation("(")) {
        position++;
        const args: ExpressionValue[] = [];
        while (!isPunctuation(")")) {
          args.push(or());
          if (isPunctuation(",")) position++;
        }
        expect(")");
        value = call(token.value, args);
      } else {
        if (!(token.value in context.contexts))
          throw new Error(`unknown context ${token.value} in ${source}`);
        value = context.contexts[token.value] ?? null;
      }
    } else if (token.value === "(") {
      value = or();
      expect(")");
    } else if (token.value === "!") {
      return !truthy(primary());
    } else {
      throw new Error(`unexpected "${token.value}" in ${source}`);
    }
    for (;;) {
      if (isPunctuation(".")) {
        position++;
        const key = peek();
        if (key?.kind !== "name") throw new Error(`expected a property name in ${source}`);
        position++;
        value = property(value, key.value);
      } else if (isPunctuation("[")) {
        position++;
        const key = or();
        expect("]");
        value = property(value, stringify(key));
      } else {
        return value;
      }
    }
  };

  const comparison = (): ExpressionValue => {
    let left = primary();
    for (;;) {
      const token = peek();
      if (
        token?.kind !== "punctuation" ||
        !["==", "!=", "<", "<=", ">", ">="].includes(token.value)
      ) {
        return left;
      }
      position++;
      const right = primary();
      if (token.value === "==") left = looselyEqual(left, right);
      else if (token.value === "!=") left = !looselyEqual(left, right);
      else {
        const order = compare(left, right);
        left =
          token.value === "<"
            ? order < 0
            : token.value === "<="
              ? order <= 0
              : token.value === ">"
                ? order > 0
                : order >= 0;
      }
    }
  };

  const and = (): ExpressionValue => {
    let left = comparison();
    while (isPunctuation("&&")) {
      position++;
      const right = comparison();
      left = truthy(left) ? right : left;
    }
    return left;
  };

  function or(): ExpressionValue {
    let left = and();
    while (isPunctuation("||")) {
      position++;
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  }

  const result = or();
  if (position !== tokens.length) throw new Error(`unexpected trailing tokens in ${source}`);
  return result;
}
