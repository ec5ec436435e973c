/**
 * Path globs from a repository's `.github/gadfly.yml`, compiled to a matcher
 * that runs in time linear in the path's length (a Thompson NFA simulated
 * state set by state set: no backtracking, no RegExp built from user text).
 *
 * The subset, with picomatch's meaning (`dot: true`) so existing configs keep
 * working: literal characters, `?` (one character but `/`), `*` (any run of
 * characters but `/`), `**` as a whole path segment (any number of segments),
 * character classes `[abc]`, `[a-z]`, `[!a-z]` / `[^a-z]` (never `/`), `\x`
 * for a literal `x`, and one level of braces `{a,b}` (expanded, at most
 * MAX_GLOB_ALTERNATIVES ways). Anything else (extglobs, groups, `|`, nested
 * braces, a leading `!` or `/`, a trailing `/`) is refused with a reason, never
 * guessed at.
 */

/** How many patterns one glob's braces may expand to. */
export const MAX_GLOB_ALTERNATIVES = 8;

export type SafeGlob =
  | {
      ok: true;
      /**
       * Whether the whole path matches. O(path length × stateCount), whatever the glob.
       * With a budget, each live state visited costs one step; null when the budget ran out.
       */
      matches(path: string): boolean;
      matchesWithin(path: string, budget: MatchBudget): boolean | null;
      /** The size of the compiled matcher: the bound on the work per path character. */
      stateCount: number;
    }
  | { ok: false; problem: string };

/** Steps of matching left, shared by every path and glob of one change set. */
export interface MatchBudget {
  steps: number;
}

type Item =
  | { kind: "literal"; codePoint: number }
  | { kind: "any" }
  | { kind: "class"; negated: boolean; ranges: [number, number][] }
  | { kind: "stars"; count: number }
  | { kind: "braces"; alternatives: Item[][] };

type FlatItem = Exclude<Item, { kind: "braces" }>;

type Token =
  | { kind: "char"; test: Test }
  /** `*`: any run of characters but `/`. */
  | { kind: "star" }
  /** `**` alone: anything. */
  | { kind: "anything" }
  /** `**` then `/`: zero or more whole segments (the regex `(.*[/])?`). */
  | { kind: "directories" }
  /** A trailing `/**`: the path itself or anything below it, i.e. `(/.*)?`. */
  | { kind: "below" };

/**
 * The compiled automaton, one entry per state in parallel arrays (no closure
 * per state: the inner loop of matching stays a few array reads).
 * - `char`: consumes one accepted character, goes to `next`;
 * - `loop`: consumes any number of accepted characters, leaves to `next` (a star in one state);
 * - `fork`: goes to `next` and to `alternative` without consuming;
 * - `match`: the whole glob matched.
 */
const MATCH = 0;
const CHAR = 1;
const LOOP = 2;
const FORK = 3;

/** What a `char` or `loop` state accepts. */
const LITERAL = 0;
const NOT_SLASH = 1;
const ANYTHING = 2;
const CLASS = 3;

type Test =
  | { test: typeof LITERAL; codePoint: number }
  | { test: typeof NOT_SLASH | typeof ANYTHING }
  | { test: typeof CLASS; negated: boolean; ranges: [number, number][] };

class Automaton {
  kind: number[] = [MATCH];
  test: number[] = [0];
  /** The literal's code point, or the index of a class in `classes`. */
  operand: number[] = [0];
  next: number[] = [0];
  alternative: number[] = [0];
  classes: { negated: boolean; ranges: [number, number][] }[] = [];

  add(kind: number, test: Test | null, next: number, alternative = -1): number {
    this.kind.push(kind);
    this.test.push(test?.test ?? 0);
    if (test?.test === CLASS) {
      this.operand.push(this.classes.length);
      this.classes.push({ negated: test.negated, ranges: test.ranges });
    } else {
      this.operand.push(test?.test === LITERAL ? test.codePoint : 0);
    }
    this.next.push(next);
    this.alternative.push(alternative);
    return this.kind.length - 1;
  }
}

/** The automaton as matching reads it: typed arrays, built once per glob. */
interface FrozenAutomaton {
  kind: Int32Array;
  test: Int32Array;
  operand: Int32Array;
  next: Int32Array;
  alternative: Int32Array;
  classes: readonly { negated: boolean; ranges: [number, number][] }[];
}

function freeze(automaton: Automaton): FrozenAutomaton {
  return {
    kind: Int32Array.from(automaton.kind),
    test: Int32Array.from(automaton.test),
    operand: Int32Array.from(automaton.operand),
    next: Int32Array.from(automaton.next),
    alternative: Int32Array.from(automaton.alternative),
    classes: automaton.classes,
  };
}

class GlobSyntaxError extends Error {}

const SLASH = 0x2f;
const slash: Test = { test: LITERAL, codePoint: SLASH };

/** Compiles one glob, or says why it is outside the safe subset. */
export function compileSafeGlob(pattern: string): SafeGlob {
  try {
    if (pattern === "") throw new GlobSyntaxError("an empty glob matches nothing");
    if (pattern.startsWith("!"))
      throw new GlobSyntaxError("negation (a leading '!') is not supported");
    if (pattern.startsWith("/"))
      throw new GlobSyntaxError("paths are relative to the repository root: drop the leading '/'");
    if (pattern.endsWith("/"))
      throw new GlobSyntaxError("a trailing '/' matches no file: write 'dir/**' for a directory");
    const items = new Parser(pattern).parse();
    const expansions = expandBraces(items);
    const automaton = new Automaton();
    const tokenized = expansions.map(tokenize);
    const starts = tokenized.map((tokens) => emitStates(tokens, automaton));
    const frozen = freeze(automaton);
    // Most globs end in literal text (`**/*.snap`): a path that does not end with it cannot
    // match, and is turned away without running the automaton.
    const endings = tokenized.map(literalEnding);
    const cannotMatch = (path: string) =>
      endings.every((ending) => ending !== "" && !path.endsWith(ending));
    return {
      ok: true,
      stateCount: frozen.kind.length,
      matches: (path) =>
        !cannotMatch(path) &&
        simulate(frozen, starts, path, { steps: Number.POSITIVE_INFINITY }) === true,
      matchesWithin: (path, budget) =>
        cannotMatch(path) ? false : simulate(frozen, starts, path, budget),
    };
  } catch (error) {
    if (error instanceof GlobSyntaxError) return { ok: false, problem: error.message };
    throw error;
  }
}

class Parser {
  #position = 0;
  readonly #pattern: string;

  constructor(pattern: string) {
    this.#pattern = pattern;
  }

  parse(): Item[] {
    const items = this.#sequence(false);
    if (this.#position < this.#pattern.length) {
      throw new GlobSyntaxError(`'}' at ${this.#position + 1} closes no '{' (write '\\}')`);
    }
    return items;
  }

  #sequence(inBraces: boolean): Item[] {
    const items: Item[] = [];
    while (this.#position < this.#pattern.length) {
      const character = this.#peek();
      if (character === "}" || (inBraces && character === ",")) {
        if (inBraces) return items;
        throw new GlobSyntaxError(`'}' at ${this.#position + 1} closes no '{' (write '\\}')`);
      }
      this.#position += character.length;
      switch (character) {
        case "\\":
          items.push({ kind: "literal", codePoint: this.#escaped() });
          break;
        case "?":
          items.push({ kind: "any" });
          break;
        case "*": {
          const last = items.at(-1);
          if (last?.kind === "stars") last.count++;
          else items.push({ kind: "stars", count: 1 });
          break;
        }
        case "[":
          items.push(this.#characterClass());
          break;
        case "{":
          if (inBraces) throw new GlobSyntaxError("nested braces '{…{…}…}' are not supported");
          items.push(this.#braces());
          break;
        case "(":
        case ")":
        case "|":
          throw new GlobSyntaxError(
            `'${character}' at ${this.#position}: groups and extglobs are not supported (write '\\${character}' for the character)`,
          );
        default:
          items.push({ kind: "literal", codePoint: character.codePointAt(0) ?? 0 });
      }
    }
    return items;
  }

  #braces(): Item {
    const opened = this.#position;
    const alternatives: Item[][] = [];
    for (;;) {
      alternatives.push(this.#sequence(true));
      const closer = this.#peek();
      if (closer === "") throw new GlobSyntaxError(`'{' at ${opened} is never closed`);
      this.#position += 1;
      if (closer === "}") break;
    }
    if (alternatives.length < 2) {
      throw new GlobSyntaxError(`'{' at ${opened} has no ',': braces list alternatives, '{a,b}'`);
    }
    return { kind: "braces", alternatives };
  }

  #characterClass(): Item {
    const opened = this.#position;
    let negated = false;
    if (this.#peek() === "!" || this.#peek() === "^") {
      negated = true;
      this.#position += 1;
    }
    const ranges: [number, number][] = [];
    let first = true;
    for (;;) {
      const character = this.#peek();
      if (character === "") throw new GlobSyntaxError(`'[' at ${opened} is never closed`);
      this.#position += character.length;
      if (character === "]" && !first) break;
      if (character === "[" && this.#peek() === ":") {
        throw new GlobSyntaxError(`POSIX classes like '[:alpha:]' are not supported`);
      }
      first = false;
      const low = character === "\\" ? this.#escaped() : (character.codePointAt(0) ?? 0);
      let high = low;
      const after = this.#pattern[this.#position + 1];
      if (this.#peek() === "-" && after !== undefined && after !== "]") {
        this.#position += 1;
        const end = this.#peek();
        this.#position += end.length;
        high = end === "\\" ? this.#escaped() : (end.codePointAt(0) ?? 0);
        if (high < low) {
          throw new GlobSyntaxError(
            `the range '${String.fromCodePoint(low)}-${String.fromCodePoint(high)}' is reversed`,
          );
        }
      }
      ranges.push([low, high]);
    }
    return { kind: "class", negated, ranges };
  }

  #escaped(): number {
    const character = this.#peek();
    if (character === "") throw new GlobSyntaxError("a trailing '\\' escapes nothing");
    this.#position += character.length;
    return character.codePointAt(0) ?? 0;
  }

  /** The character (code point) at the cursor, or "" at the end. */
  #peek(): string {
    const codePoint = this.#pattern.codePointAt(this.#position);
    return codePoint === undefined ? "" : String.fromCodePoint(codePoint);
  }
}

/** `{a,b}c{d,e}` → `acd`, `ace`, `bcd`, `bce`: capped before anything is built. */
function expandBraces(items: readonly Item[]): FlatItem[][] {
  let count = 1;
  for (const item of items) {
    if (item.kind === "braces") {
      count *= item.alternatives.length;
      if (count > MAX_GLOB_ALTERNATIVES) {
        throw new GlobSyntaxError(
          `the braces expand to more than ${MAX_GLOB_ALTERNATIVES} patterns: list fewer alternatives`,
        );
      }
    }
  }
  let expansions: FlatItem[][] = [[]];
  for (const item of items) {
    if (item.kind !== "braces") {
      for (const expansion of expansions) expansion.push(item);
      continue;
    }
    // One level only, so an alternative holds no braces (the parser refuses nesting).
    const alternatives = item.alternatives as FlatItem[][];
    expansions = expansions.flatMap((prefix) =>
      alternatives.map((alternative) => [...prefix, ...alternative]),
    );
  }
  return expansions;
}

/** Picomatch's reading of `**`: a globstar only as a whole segment, a `*` otherwise. */
function tokenize(items: readonly FlatItem[]): Token[] {
  const tokens: Token[] = [];
  const isSlash = (item: FlatItem | undefined) =>
    item?.kind === "literal" && item.codePoint === SLASH;
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as FlatItem;
    switch (item.kind) {
      case "literal":
        tokens.push({ kind: "char", test: { test: LITERAL, codePoint: item.codePoint } });
        break;
      case "any":
        tokens.push({ kind: "char", test: { test: NOT_SLASH } });
        break;
      case "class":
        tokens.push({
          kind: "char",
          test: { test: CLASS, negated: item.negated, ranges: item.ranges },
        });
        break;
      case "stars": {
        const wholeSegment =
          item.count >= 2 &&
          (index === 0 || isSlash(items[index - 1])) &&
          (index === items.length - 1 || isSlash(items[index + 1]));
        if (!wholeSegment) {
          tokens.push({ kind: "star" });
        } else if (index < items.length - 1) {
          tokens.push({ kind: "directories" });
          index++; // the `/` is part of `(.*/)?`
        } else if (index > 0) {
          tokens.pop(); // the `/` before a trailing `**` is part of `(/.*)?`
          tokens.push({ kind: "below" });
        } else {
          tokens.push({ kind: "anything" });
        }
        break;
      }
    }
  }
  return tokens;
}

/** The literal characters a token sequence ends with ("" when it ends in a wildcard). */
function literalEnding(tokens: readonly Token[]): string {
  let ending = "";
  for (let index = tokens.length - 1; index >= 0; index--) {
    const token = tokens[index] as Token;
    if (token.kind !== "char" || token.test.test !== LITERAL) break;
    ending = String.fromCodePoint(token.test.codePoint) + ending;
  }
  return ending;
}

/** Appends the states of one token sequence (built back to front) and returns its start. */
function emitStates(tokens: readonly Token[], automaton: Automaton): number {
  let next = 0; // the match state
  for (let index = tokens.length - 1; index >= 0; index--) {
    const token = tokens[index] as Token;
    switch (token.kind) {
      case "char":
        next = automaton.add(CHAR, token.test, next);
        break;
      case "star":
        next = automaton.add(LOOP, { test: NOT_SLASH }, next);
        break;
      case "anything":
        next = automaton.add(LOOP, { test: ANYTHING }, next);
        break;
      case "directories": {
        const lastSlash = automaton.add(CHAR, slash, next);
        const segments = automaton.add(LOOP, { test: ANYTHING }, lastSlash);
        next = automaton.add(FORK, null, segments, next);
        break;
      }
      case "below": {
        const rest = automaton.add(LOOP, { test: ANYTHING }, next);
        const firstSlash = automaton.add(CHAR, slash, rest);
        next = automaton.add(FORK, null, firstSlash, next);
        break;
      }
    }
  }
  return next;
}

/**
 * Runs the automaton over the path keeping the set of live states: each
 * character visits each state at most once, so the work is at most
 * path length × states, and a dead set stops early. Typed arrays and no
 * allocation per character: this loop is the whole cost of matching.
 */
function simulate(
  automaton: FrozenAutomaton,
  starts: readonly number[],
  path: string,
  budget: MatchBudget,
): boolean | null {
  const { kind, test, operand, next, alternative, classes } = automaton;
  const size = kind.length;
  const seen = new Uint32Array(size);
  // Every state enters a set at most once per character; a closure pushes each edge at most once.
  let current = new Int32Array(size);
  let upcoming = new Int32Array(size);
  const pending = new Int32Array(2 * size + 2);
  let currentLength = 0;
  let upcomingLength = 0;
  let generation = 1;

  const addClosure = (start: number, into: Int32Array, length: number): number => {
    let top = 0;
    pending[top++] = start;
    let added = length;
    while (top > 0) {
      const index = pending[--top] as number;
      if (seen[index] === generation) continue;
      seen[index] = generation;
      const stateKind = kind[index];
      if (stateKind === FORK) {
        pending[top++] = alternative[index] as number;
        pending[top++] = next[index] as number;
      } else {
        into[added++] = index;
        // A loop may also be left without consuming anything.
        if (stateKind === LOOP) pending[top++] = next[index] as number;
      }
    }
    return added;
  };

  for (const start of starts) currentLength = addClosure(start, current, currentLength);
  for (let offset = 0; offset < path.length; ) {
    const codePoint = path.codePointAt(offset) ?? 0;
    offset += codePoint > 0xffff ? 2 : 1;
    budget.steps -= currentLength;
    if (budget.steps < 0) return null;
    generation++;
    upcomingLength = 0;
    for (let position = 0; position < currentLength; position++) {
      const index = current[position] as number;
      const stateKind = kind[index];
      if (stateKind === MATCH) continue;
      let accepted: boolean;
      switch (test[index]) {
        case LITERAL:
          accepted = codePoint === operand[index];
          break;
        case NOT_SLASH:
          accepted = codePoint !== SLASH;
          break;
        case ANYTHING:
          accepted = true;
          break;
        default:
          accepted = codePoint !== SLASH && inClass(classes[operand[index] as number], codePoint);
      }
      if (!accepted) continue;
      // A loop stays where it is; a char moves on.
      upcomingLength = addClosure(
        stateKind === LOOP ? index : (next[index] as number),
        upcoming,
        upcomingLength,
      );
    }
    const swap = current;
    current = upcoming;
    upcoming = swap;
    currentLength = upcomingLength;
    if (currentLength === 0) return false;
  }
  for (let position = 0; position < currentLength; position++) {
    if (kind[current[position] as number] === MATCH) return true;
  }
  return false;
}

function inClass(
  characterClass: { negated: boolean; ranges: [number, number][] } | undefined,
  codePoint: number,
): boolean {
  if (characterClass === undefined) return false;
  let inRange = false;
  for (const [low, high] of characterClass.ranges) {
    if (codePoint >= low && codePoint <= high) {
      inRange = true;
      break;
    }
  }
  return inRange !== characterClass.negated;
}
