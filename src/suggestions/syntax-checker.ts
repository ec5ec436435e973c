import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import type { Language, Node, Parser } from "web-tree-sitter";

/**
 * The grammars shipped by `@vscode/tree-sitter-wasm` (WASM: no native build), by file extension.
 * Only these are parsed; a file of any other kind is published without a syntax check, said so.
 */
const GRAMMAR_OF_EXTENSION: Record<string, string> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".py": "python",
  ".pyi": "python",
  ".go": "go",
  ".java": "java",
  ".rb": "ruby",
  ".rake": "ruby",
  ".gemspec": "ruby",
  ".rs": "rust",
  ".cs": "c-sharp",
  ".cpp": "cpp",
  ".cc": "cpp",
  ".cxx": "cpp",
  ".hpp": "cpp",
  ".css": "css",
  ".sh": "bash",
  ".bash": "bash",
};

/** The grammar a path is parsed with, or null when none ships for its kind. */
export function grammarOf(path: string): string | null {
  return GRAMMAR_OF_EXTENSION[extname(path).toLowerCase()] ?? null;
}

/** How a grammar's WASM is read: from the package by default; a test counts the loads. */
export type GrammarLoader = (grammar: string) => Promise<Uint8Array>;

export interface SyntaxCount {
  /** The grammar the text was parsed with. */
  grammar: string;
  /** ERROR and MISSING nodes of the tree: 0 for text that parses. */
  errors: number;
  /** The lines (1-based) such nodes start on, in order, at most MAX_ERROR_LINES of them. */
  errorLines: number[];
}

/** Error lines kept per parse: enough to point at the one a change added. */
const MAX_ERROR_LINES = 100;

/**
 * Counts a file's syntax errors with tree-sitter. Grammars are loaded lazily, each at most once
 * per checker, and only for the kinds of file asked about: a Go-only pull request loads Go alone
 * (`loadedGrammars`). The runtime itself (web-tree-sitter) is imported on first use too, so a
 * round without a suggestion loads no WASM at all.
 */
export class SyntaxChecker {
  private readonly loader: GrammarLoader;
  private runtime: Promise<typeof import("web-tree-sitter")> | undefined;
  private readonly languages = new Map<string, Promise<Language>>();

  constructor(loader: GrammarLoader = readShippedGrammar) {
    this.loader = loader;
  }

  /** The grammars this checker has loaded (or is loading), in the order first asked for. */
  loadedGrammars(): string[] {
    return [...this.languages.keys()];
  }

  /** Parses `text` as the kind of file `path` names; null when no grammar ships for it. */
  async count(path: string, text: string): Promise<SyntaxCount | null> {
    const grammar = grammarOf(path);
    if (grammar === null) return null;
    const module = await this.loadRuntime();
    const language = await this.language(module, grammar);
    const parser: Parser = new module.Parser();
    try {
      parser.setLanguage(language);
      const tree = parser.parse(text);
      if (tree === null) throw new Error(`tree-sitter returned no tree for ${path}`);
      try {
        return { grammar, ...countErrors(tree.rootNode) };
      } finally {
        tree.delete();
      }
    } finally {
      parser.delete();
    }
  }

  private loadRuntime(): Promise<typeof import("web-tree-sitter")> {
    this.runtime ??= import("web-tree-sitter").then(async (module) => {
      await module.Parser.init();
      return module;
    });
    return this.runtime;
  }

  private language(module: typeof import("web-tree-sitter"), grammar: string): Promise<Language> {
    let loading = this.languages.get(grammar);
    if (loading === undefined) {
      loading = this.loader(grammar).then((bytes) => module.Language.load(bytes));
      this.languages.set(grammar, loading);
    }
    return loading;
  }
}

/** ERROR and MISSING nodes, walked with a cursor (no recursion: a hostile file may nest deeply). */
function countErrors(root: Node): { errors: number; errorLines: number[] } {
  const errorLines: number[] = [];
  if (!root.hasError) return { errors: 0, errorLines };
  let errors = 0;
  const cursor = root.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) {
        errors++;
        if (errorLines.length < MAX_ERROR_LINES) errorLines.push(node.startPosition.row + 1);
      }
      // Only a subtree that holds an error is entered.
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return { errors, errorLines };
      }
    }
  } finally {
    cursor.delete();
  }
}

/** The grammar's WASM file in the `@vscode/tree-sitter-wasm` package. */
async function readShippedGrammar(grammar: string): Promise<Uint8Array> {
  const main = createRequire(import.meta.url).resolve("@vscode/tree-sitter-wasm");
  return readFile(join(dirname(main), `tree-sitter-${grammar}.wasm`));
}

let shared: SyntaxChecker | undefined;

/** The process's checker: each grammar loaded once, by the first round that needs it. */
export function defaultSyntaxChecker(): SyntaxChecker {
  shared ??= new SyntaxChecker();
  return shared;
}
