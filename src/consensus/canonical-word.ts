/**
 * Plain-word normalisation for finding similarity: stop words out, a light stemmer, and a
 * few synonym classes reviewers use interchangeably ("crash" / "throw", "copy" / "duplicate").
 */

// English function words plus words every review uses whatever the problem: they carry no
// evidence that two findings describe the same thing.
const STOP_WORDS = new Set(
  (
    "a about above after again against all also am an and any are aren as at be because been " +
    "before being below between both but by can cannot could did do does doing done down during " +
    "each either else etc even ever every few for from further had has have having he her here " +
    "hers him his how however i if in into is isn it its itself just less let like may me might " +
    "more most much must my neither no nor not now of off often on once one only or other our " +
    "ours out over own per perhaps quite rather really same she should since so some still such " +
    "than that the their theirs them then there these they this those though through thus to " +
    "too under until up upon us very via was we well were what when where whether which while " +
    "who whom whose why will with within without would yet you your " +
    // review boilerplate
    "code line lines file files function functions method methods call calls called use uses " +
    "used using instead consider make makes made need needs needed issue issues problem problems " +
    "bug bugs potential potentially possible possibly likely currently current here new change " +
    "changes changed pr diff patch fix fixes fixed suggest suggestion recommend better way ensure " +
    "note todo currently actually simply already e g ie eg"
  ).split(" "),
);

// Ordered: the first suffix that leaves a stem of at least three letters wins.
const SUFFIXES: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"],
  ["isons", ""],
  ["ison", ""],
  ["ations", "at"],
  ["ation", "at"],
  ["ities", ""],
  ["ity", ""],
  ["ements", ""],
  ["ement", ""],
  ["ments", ""],
  ["ment", ""],
  ["ness", ""],
  ["ings", ""],
  ["ing", ""],
  ["ies", "y"],
  ["ied", "y"],
  ["ers", ""],
  ["er", ""],
  ["ed", ""],
  ["ly", ""],
  ["es", ""],
  ["s", ""],
  ["e", ""],
];

// Stems (after stemming) that name the same idea in review prose.
const SYNONYMS: Record<string, string> = {
  copy: "duplicat",
  copi: "duplicat",
  dupe: "duplicat",
  dup: "duplicat",
  duplic: "duplicat",
  repeat: "duplicat",
  verbatim: "duplicat",
  crash: "throw",
  panic: "throw",
  rais: "throw",
  exception: "throw",
  undefin: "null",
  nil: "null",
  none: "null",
  absent: "miss",
  lack: "miss",
  omit: "miss",
  omitt: "miss",
  discard: "drop",
  swallow: "drop",
  lost: "drop",
  los: "drop",
  ignor: "drop",
  silent: "drop",
  guard: "check",
  validat: "check",
  verify: "check",
  verifi: "check",
  sanitiz: "check",
  regexp: "regex",
  unawait: "await",
  promis: "await",
  slow: "slow",
  inefficient: "slow",
  quadratic: "slow",
  expensiv: "slow",
  costly: "slow",
  hoist: "extract",
  centraliz: "extract",
  factor: "extract",
  reus: "extract",
  leak: "expos",
  disclos: "expos",
  reveal: "expos",
};

function stem(word: string): string {
  if (word.length <= 4) {
    return word.endsWith("s") && !word.endsWith("ss") && word.length > 3 ? word.slice(0, -1) : word;
  }
  for (const [suffix, replacement] of SUFFIXES) {
    if (word.endsWith(suffix)) {
      const stemmed = word.slice(0, word.length - suffix.length) + replacement;
      if (stemmed.length >= 3 && !(suffix === "s" && /(ss|us|is)$/.test(word))) {
        // "logged" → "log", "omitted" → "omit", as Porter does (but "fill", "pass" stay).
        return /([^aeiouslz])\1$/.test(stemmed) ? stemmed.slice(0, -1) : stemmed;
      }
    }
  }
  return word;
}

// Review vocabulary is small and repetitive: remembering answers halves tokenising time. The
// cap keeps a long-lived process from growing without bound on unusual input.
const MEMORY_LIMIT = 50_000;
const memory = new Map<string, string | null>();

/** The comparable form of a plain word, or null for a stop word or a fragment too short to mean much. */
export function canonicalWord(word: string): string | null {
  const known = memory.get(word);
  if (known !== undefined) {
    return known;
  }
  if (memory.size >= MEMORY_LIMIT) {
    memory.clear();
  }
  const result = normalise(word);
  memory.set(word, result);
  return result;
}

function normalise(word: string): string | null {
  const lower = word.toLowerCase();
  if (lower.length < 3 || STOP_WORDS.has(lower) || /^\d+$/.test(lower)) {
    return null;
  }
  const stemmed = stem(lower);
  const synonym = SYNONYMS[stemmed] ?? SYNONYMS[lower];
  if (synonym !== undefined) {
    return synonym;
  }
  // "unescaped" / "escaping", "unbounded" / "bound": the topic matters here, not the polarity.
  const negated = /^un(\w{4,}(?:ed|able|ing))$/.exec(lower)?.[1];
  return negated === undefined ? stemmed : normalise(negated);
}
