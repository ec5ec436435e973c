import { canonicalWord } from "./canonical-word.js";

/** A line (range) a finding's text points at, such as `finalize.go:156`, `:156` or "lines 54-55". */
export interface LineReference {
  /** The file named with it, or null for a bare reference (read as the finding's own file). */
  file: string | null;
  line: number;
  endLine: number;
}

/** What the similarity measure compares: weighted tokens, plus the lines the text points at. */
export interface TextProfile {
  /**
   * Token → weight, over title and body. Tokens are prefixed by kind: `id:` identifier,
   * `lit:` code literal, `w:` plain word (stemmed).
   */
  weights: ReadonlyMap<string, number>;
  /** The title's tokens alone, unboosted: what the finding claims. */
  titleWeights: ReadonlyMap<string, number>;
  references: LineReference[];
}

// Identifiers are strong evidence that two findings mean the same thing; a code literal
// (`[\s>#*_+-]*`) less so, since it names the code, and two problems can share it; plain words
// are weak. Title tokens count more than body tokens: the title is the claim.
const IDENTIFIER_WEIGHT = 3;
const SHORT_IDENTIFIER_WEIGHT = 1.5;
const LITERAL_WEIGHT = 2;
const WORD_WEIGHT = 1;
const IDENTIFIER_PART_WEIGHT = 0.5;
const TITLE_BOOST = 1.5;
// What identifies a problem is said early; the caps bound the work on pathological output.
const MAX_TITLE_CHARS = 500;
const MAX_BODY_CHARS = 4_000;
const MAX_CHUNK_CHARS = 200;

const SOURCE_EXTENSIONS =
  "tsx?|jsx?|mjs|cjs|go|py|rb|rs|java|kt|cs|cc|cpp|hpp|c|h|php|swift|scala|sql|ya?ml|json|md|hbs|sh|toml|vue|svelte|css|html";
const LINE_LIST = String.raw`(\d+(?:\s*[-–]\s*\d+)?(?:\s*,\s*\d+(?:\s*[-–]\s*\d+)?)*)`;
// The lookbehind makes matches start only where a path-like run starts: without it, a long run
// of word characters (a hash, base64 in a model's answer) is rescanned from every position.
const FILE_REFERENCE = new RegExp(
  String.raw`(?<![\w./-])((?:[\w.-]+\/)*[\w-]+\.(?:${SOURCE_EXTENSIONS}))\b(?::${LINE_LIST})?`,
  "g",
);
const BARE_REFERENCE = new RegExp(String.raw`(^|[\s(\/,])[:#]L?${LINE_LIST}\b`, "g");
const LINE_WORDS = /\blines?\s+(\d+)(?:\s*(?:[-–]|to|through|and)\s*(\d+))?/gi;
// Fenced blocks, then double-backtick spans, then single ones (a single span stays on one line).
const CODE_SPAN = /```([\s\S]*?)```|``([^`][\s\S]*?)``|`([^`\n]+)`/g;
const IDENTIFIER_PATH = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g;
const THREE_DIGITS = /\d{3}/;
const WRAPPERS = /^[`'"“”‘’*(]+|[`'"“”‘’*,;:.!?)]+$/g;

function lineRanges(list: string, file: string | null): LineReference[] {
  return list.split(",").flatMap((part) => {
    const [start, end] = part.split(/[-–]/).map((value) => Number.parseInt(value.trim(), 10));
    if (start === undefined || Number.isNaN(start) || start <= 0) {
      return [];
    }
    const endLine = end === undefined || Number.isNaN(end) || end < start ? start : end;
    return [{ file, line: start, endLine }];
  });
}

function isIdentifierShaped(word: string): boolean {
  return /[a-z][A-Z]|[A-Za-z0-9]_[A-Za-z0-9]|[A-Za-z]\d/.test(word);
}

function identifierParts(identifier: string): string[] {
  return identifier
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .split(/[\s_$\d]+/)
    .filter((part) => part.length > 0);
}

/**
 * Unbalanced backticks (models nest them: `` `a = `[x]`` ``) can make a sentence look like a
 * code span; a span of mostly plain words is read as prose so its words stay weak evidence.
 */
function looksLikeProse(span: string): boolean {
  const chunks = span.split(/\s+/).filter((chunk) => chunk.length > 0);
  const plain = chunks.filter((chunk) => /^[a-z]+[,.;:]?$/.test(chunk)).length;
  return chunks.length >= 4 && plain / chunks.length > 0.6;
}

/** A chunk such as `[\s>#*_+-]*` or `x ?? ""` is a code literal: compared whole. */
function isLiteral(core: string): boolean {
  return (
    core.length >= 4 &&
    core.length <= MAX_CHUNK_CHARS &&
    /[^\w.]/.test(core) &&
    new Set(core.replace(/[\w\s]/g, "")).size >= 2
  );
}

/** Where reading a chunk puts its tokens: a finding's collector, or a chunk's record. */
interface TokenSink {
  add(token: string, weight: number): void;
}

/** What reading one chunk adds, in order: tokens[i] with weights[i]. */
interface ChunkTokens {
  readonly tokens: string[];
  readonly weights: number[];
}

/**
 * Chunks (whitespace-separated words) already read, by chunk and how it was read. Findings'
 * texts differ, but their words repeat: a clustering call reads each distinct chunk once. Holds
 * no more than the texts read with it, for as long as its owner keeps it.
 */
export type ChunkMemo = Map<string, ChunkTokens>;

class TokenCollector implements TokenSink {
  readonly weights = new Map<string, number>();

  constructor(private readonly memo?: ChunkMemo) {}

  add(token: string, weight: number): void {
    if (weight > (this.weights.get(token) ?? 0)) {
      this.weights.set(token, weight);
    }
  }

  addSegment(segment: string, isCode: boolean): void {
    const chunks = segment.split(/\s+/).filter((chunk) => chunk.length > 0);
    // A lone `all` in backticks names something; an `and` inside a longer span does not.
    const keepStopWords = isCode && chunks.length === 1;
    for (const chunk of chunks) {
      if (this.memo === undefined) {
        readChunk(chunk, isCode, keepStopWords, this);
        continue;
      }
      // Replaying a chunk's additions in their order equals reading it again: add keeps the
      // largest weight and the first place either way.
      const key = `${isCode ? "c" : "p"}${keepStopWords ? "k" : "-"}${chunk}`;
      let read = this.memo.get(key);
      if (read === undefined) {
        const record: ChunkTokens = { tokens: [], weights: [] };
        readChunk(chunk, isCode, keepStopWords, {
          add: (token, weight) => {
            record.tokens.push(token);
            record.weights.push(weight);
          },
        });
        this.memo.set(key, record);
        read = record;
      }
      for (let index = 0; index < read.tokens.length; index += 1) {
        this.add(read.tokens[index] as string, read.weights[index] as number);
      }
    }
  }
}

function addWord(sink: TokenSink, word: string, weight: number): void {
  const canonical = canonicalWord(word);
  if (canonical !== null) {
    sink.add(`w:${canonical}`, weight);
  }
}

/** One whitespace-separated chunk of a segment: its literal, numbers and identifiers. */
function readChunk(chunk: string, isCode: boolean, keepStopWords: boolean, sink: TokenSink): void {
  const core = chunk.length > MAX_CHUNK_CHARS ? chunk : chunk.replace(WRAPPERS, "");
  if (isLiteral(core)) {
    sink.add(`lit:${core}`, LITERAL_WEIGHT);
  }
  // Status codes and limits (401, 65,536) say what a finding is about; small counts do not.
  // (Removing a separator needs three digits after it: without three in a row, nothing.)
  if (THREE_DIGITS.test(core)) {
    for (const match of core.replace(/(\d)[,_](?=\d{3}\b)/g, "$1").matchAll(/\d{3,}/g)) {
      sink.add(`w:${match[0]}`, WORD_WEIGHT);
    }
  }
  for (const match of core.matchAll(IDENTIFIER_PATH)) {
    // "marked()" in prose names a function as surely as `marked` does.
    const isCall = core[match.index + match[0].length] === "(";
    addIdentifierPath(sink, match[0], isCode || isCall, keepStopWords);
  }
}

function addIdentifierPath(
  sink: TokenSink,
  path: string,
  isCode: boolean,
  keepStopWords: boolean,
): void {
  const parts = path.split(".");
  if (parts.length > 1 && (isCode || parts.some(isIdentifierShaped))) {
    sink.add(`id:${path.toLowerCase()}`, IDENTIFIER_WEIGHT);
  }
  for (const part of parts) {
    const shaped = isIdentifierShaped(part);
    if (!shaped && (part.length <= 2 || (!keepStopWords && canonicalWord(part) === null))) {
      continue;
    }
    if (!isCode && !shaped) {
      addWord(sink, part, WORD_WEIGHT);
      continue;
    }
    sink.add(
      `id:${part.toLowerCase()}`,
      part.length <= 3 ? SHORT_IDENTIFIER_WEIGHT : IDENTIFIER_WEIGHT,
    );
    // The plain reading too, so `marked` in code and "marked" in prose still meet.
    const pieces = identifierParts(part);
    const pieceWeight = pieces.length === 1 ? WORD_WEIGHT : IDENTIFIER_PART_WEIGHT;
    for (const piece of pieces) {
      addWord(sink, piece, pieceWeight);
    }
  }
}

/** Takes file paths and line references out of the text (they are places, not the problem). */
function collectReferences(text: string, references: LineReference[]): string {
  return text
    .replace(FILE_REFERENCE, (_match, file: string, lines: string | undefined) => {
      if (lines !== undefined) {
        references.push(...lineRanges(lines, file));
      }
      return " ";
    })
    .replace(BARE_REFERENCE, (_match, lead: string, lines: string) => {
      references.push(...lineRanges(lines, null));
      return `${lead} `;
    })
    .replace(LINE_WORDS, (_match, start: string, end: string | undefined) => {
      references.push(...lineRanges(end === undefined ? start : `${start}-${end}`, null));
      return " ";
    });
}

function addText(text: string, tokens: TokenCollector, references: LineReference[]): void {
  const code: string[] = [];
  const prose = text.replace(
    CODE_SPAN,
    (_match, fenced?: string, double?: string, single?: string) => {
      code.push(collectReferences(fenced ?? double ?? single ?? "", references));
      return " ";
    },
  );
  tokens.addSegment(collectReferences(prose, references), false);
  for (const span of code) {
    tokens.addSegment(span, !looksLikeProse(span));
  }
}

/** The tokens of one text (a title or a body) and the lines it points at. */
export interface TextTokens {
  weights: ReadonlyMap<string, number>;
  references: readonly LineReference[];
}

/**
 * Tokenises a title (`part` "title") or a body, each read up to its own cap. With `memo`, a
 * chunk read before (under the same memo) is not read again.
 */
export function textTokens(text: string, part: "title" | "body", memo?: ChunkMemo): TextTokens {
  const references: LineReference[] = [];
  const tokens = new TokenCollector(memo);
  addText(text.slice(0, part === "title" ? MAX_TITLE_CHARS : MAX_BODY_CHARS), tokens, references);
  return { weights: tokens.weights, references };
}

/**
 * A finding's profile from its title's and body's tokens: the same as tokenising the body
 * straight into the boosted title tokens, since a token keeps its largest weight and its first
 * place either way. Split so that a text repeated across findings is tokenised once.
 */
export function combineTextTokens(title: TextTokens, body: TextTokens): TextProfile {
  const all = new TokenCollector();
  for (const [token, weight] of title.weights) {
    all.add(token, weight * TITLE_BOOST);
  }
  for (const [token, weight] of body.weights) {
    all.add(token, weight);
  }
  return {
    weights: all.weights,
    titleWeights: title.weights,
    references: [...title.references, ...body.references],
  };
}

/** Tokenises a finding's title and body for similarity, and collects the lines it points at. */
export function textProfile(text: { title: string; body: string }): TextProfile {
  return combineTextTokens(textTokens(text.title, "title"), textTokens(text.body, "body"));
}
