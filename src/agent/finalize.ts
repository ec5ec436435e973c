import { containsFindingsBlock } from "../findings/index.js";
import type { Message } from "../llm/index.js";

/*
 * Finalize: recover a model's real answer when its last turn is degenerate.
 *
 * A port of the original Gadfly's agent/finalize.go (three shapes, their
 * precedence, constants and byte lengths), extended with the two findings its
 * own review left open and with the shapes Gadfly's reviewers produce.
 *
 * Shapes, tested in this order (fail closed: an unmatched terminal is kept):
 *   citations  a citations-only addendum ("Sources:" + links). Recovered
 *              answer + the addendum (the links are new content).
 *   findings   (Gadfly) no findings block, points back, and an earlier
 *              assistant turn since the last user message holds the block.
 *              That turn is the answer; a terminal of closer size (at most
 *              SUMMARY_CLOSER_MAX_BYTES) carrying new content is appended.
 *   backRef    a short back-reference, first-person ("as I said above") or
 *              impersonal ("The findings were provided above.", "See the
 *              previous response."), or empty. Recovered answer; the terminal
 *              is discarded unless it carries content absent from the
 *              recovered answer, which is then appended.
 *   summary    a bookkeeping ack ("Citations are logged.") optionally followed
 *              by a one-line compression of the answer. Recovered only when the
 *              earlier answer dwarfs it (3x, at every length) and only within
 *              the current user window; discarded unless it carries content
 *              absent from the recovered answer, which is then appended.
 *
 * A terminal holding its own findings block is never replaced. The recovered
 * answer is the newest earlier turn that qualifies; a turn that is itself a
 * back-reference never does.
 *
 * Lengths are UTF-8 bytes, as Go's len() measured them in the original.
 */

/** A back-reference longer than this carries content of its own. */
export const WEAK_FINAL_MAX_BYTES = 120;
/** A summary closer longer than this is an answer, not a closer. */
export const SUMMARY_CLOSER_MAX_BYTES = 300;
/** How much longer an earlier turn must be to displace a summary closer (any length) or a short terminal. */
export const RECOVER_RATIO = 3;
/** An earlier turn at least this long is substantive (back-ref and citations modes). */
export const RECOVER_MIN_BYTES = 200;
/** An earlier turn shorter than this is never an answer. */
export const RECOVER_FLOOR_BYTES = 80;

type RecoveryMode = "backRef" | "citations" | "summary" | "findings";

const byteLength = (text: string): number => Buffer.byteLength(text, "utf8");

/** Leading markdown/list markers, shared by the label and ack patterns so they cannot drift. */
const LEAD_MARKERS = String.raw`[\s>#*_+-]*`;

/** Back-references that name the writer: "as I said above", "I already provided". */
const FIRST_PERSON_BACK_REFS: readonly string[] = [
  String.raw`\bas (?:i|we)(?: have| had|'ve)? (?:already )?(?:said|mentioned|noted|stated|explained|described|outlined|discussed|covered|wrote|written|shown|showed)\b`,
  String.raw`\b(?:see|refer to|per) (?:my |the )?(?:answer|response|reply|findings?|analysis|review|verdict|summary|notes?|explanation|list|report)s? above\b`,
  String.raw`\b(?:see|refer to) above\b`,
  String.raw`\b(?:(?:answer|response|findings?|analysis|review|verdict|details?|summary|explanation|list|report)s? (?:is |are )?(?:already )?(?:given |provided |written |shown |listed |posted |delivered |included )?above)\b`,
  String.raw`\b(?:already|previously) (?:answered|provided|given|delivered|covered|shared|written|posted|reported|listed|explained|described|stated|gave|wrote)\b`,
  String.raw`\b(?:i|we) (?:already|previously|just) (?:answered|provided|gave|delivered|covered|shared|wrote|posted|reported|listed|explained|described|stated)\b`,
  String.raw`\bnothing (?:more|further|else) to add\b`,
];

/*
 * Back-references with no pronoun: impersonal or passive phrasing pointing at an
 * earlier turn ("The findings were provided above.", "See the previous response.",
 * "Verdict unchanged from the prior turn.", "As noted previously, …"). Words are
 * joined by one space (the text is normalised first) and every quantifier is a
 * bounded `?`: one match attempt reads a bounded number of characters, so a scan
 * is linear in the text, whatever it holds.
 */
const EARLIER = "(?:previous|prior|preceding|earlier|above)";
const EARLIER_TURN =
  "(?:turn|message|response|reply|answer|output|post|comment|analysis|review|summary|report|findings|verdict|results?|pass)";
const WORK =
  "(?:answer|response|reply|findings?|analysis|review|verdict|details?|summary|explanation|list|report|results?|issues?|assessment|conclusions?|everything)";
const COPULA = "(?:(?:is|are|was|were|has been|have been|had been|remains?|stays?) )?";
const GIVEN =
  "(?:given|provided|written|shown|listed|posted|delivered|included|reported|covered|detailed|stated|outlined|described|presented|shared|summari[sz]ed|noted|documented|explained|enumerated|laid out|set out|submitted)";
const SAID =
  "(?:said|mentioned|noted|stated|explained|described|outlined|discussed|covered|written|shown|reported|listed|detailed|given|provided|summari[sz]ed|indicated|established)";
const WHERE = "(?:above|previously|earlier|before)";
const IMPERSONAL_BACK_REFS: readonly string[] = [
  // "See the previous response", "details in the preceding answer", "unchanged from the prior turn"
  String.raw`\b(?:see|refer to|per|check|in|from|since|as in|than) (?:(?:the|my|our|this) )?${EARLIER} ${EARLIER_TURN}\b`,
  // "The findings were provided above.", "Findings listed earlier remain valid."
  String.raw`\b${WORK} ${COPULA}(?:already |all )?${GIVEN} ${WHERE}\b`,
  // "As noted previously", "as stated above", "as previously noted"
  String.raw`\bas ${SAID} ${WHERE}\b`,
  String.raw`\bas (?:previously|already|earlier) ${SAID}\b`,
  // "Findings as above.", "Same as before." (not "same as before the refactor")
  String.raw`\bas above\b`,
  String.raw`\b(?:same|unchanged) as (?:before|above|previously)\b(?! ?\w)`,
  // "Nothing to add beyond the above.", "The above is the final review."
  String.raw`\b(?:see|per|beyond|besides|than|to|in|from) the above\b`,
  String.raw`\bthe above (?:is|stands|remains|still stands|review|analysis|answer|response|findings?|verdict)\b`,
  // "Verdict unchanged.", "The review stands."
  String.raw`\b${WORK} ${COPULA}(?:unchanged|still stands?|stands?)\b`,
  String.raw`\bsee (?:earlier|previously|before|prior)\b`,
];

/** Every back-reference pattern, for the linear-time check in the tests. */
export const BACK_REFERENCE_PATTERNS: readonly string[] = [
  ...FIRST_PERSON_BACK_REFS,
  ...IMPERSONAL_BACK_REFS,
];

const BACK_REF_RE = new RegExp(BACK_REFERENCE_PATTERNS.join("|"), "i");

/**
 * The text the back-reference patterns read: curly apostrophes straightened,
 * markdown emphasis dropped and whitespace runs collapsed to one space, so
 * "**See** the\nprevious response" reads as one phrase. Linear.
 */
function normalizeForBackReference(text: string): string {
  return text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[*_~]+/g, "")
    .replace(/\s+/g, " ");
}

const CITATION_LABEL_RE = new RegExp(
  String.raw`^${LEAD_MARKERS}(?:sources?|citations?|references?|links?|further reading)[*_]*\s*:[*_]*`,
  "i",
);
/*
 * A markdown link or a bare URL. Neither the link text nor its target may hold
 * a bracket or an opening parenthesis: each attempt then stops where the next
 * one starts, so a hostile line of "[[[[" or "[a](" repeated scans in linear
 * time. A URL whose target does hold them still matches the bare-URL branch.
 */
const LINK_RE = /\[[^[\]\n]*\]\([^()[\]\s]+\)|<?https?:\/\/[^\s>)]+/i;

/*
 * The ack sentence of a summary closer, assembled from named fragments.
 * The terminator must end the sentence: whitespace or the end must follow the
 * [.!], so "Citations are logged...and then more" is prose, not an ack.
 */
const SUMMARY_PREFACE = String.raw`(?:(?:ok(?:ay)?|alright|all right|done|great|good|got it|all set|perfect)[,.!:;—–-]?\s+)?`;
// "all" is both a quantifier after the verb-first form ("Logged all the
// citations.") and a floating word in the noun form ("Citations all logged.").
const SUMMARY_ARTICLE = String.raw`(?:(?:all|the|my|these|those)\s+)*`;
const SUMMARY_COPULAS = String.raw`(?:(?:are|were|is|was|have\s+been|has\s+been|all|now)\s+)*`;
const SUMMARY_NOUNS = "(?:citations?|sources?|references?|findings?|review|verdict|results?)";
const SUMMARY_VERBS = String.raw`(?:logged|recorded|saved|noted|captured|cited|attached|added|filed|posted|submitted|delivered|complete|completed|done|finished|in\s+place)`;
const SUMMARY_TERMINATOR = String.raw`[.!][*_]*(?=\s|$)`;
const SUMMARY_CLOSER_RE = new RegExp(
  String.raw`^${LEAD_MARKERS}${SUMMARY_PREFACE}(?:${SUMMARY_ARTICLE}${SUMMARY_NOUNS}\s+${SUMMARY_COPULAS}${SUMMARY_VERBS}|${SUMMARY_VERBS}\s+${SUMMARY_ARTICLE}${SUMMARY_NOUNS})${SUMMARY_TERMINATOR}`,
  "i",
);

/** An intent-to-act turn ("Let me check the callers.") is never the answer. */
const PREAMBLE_RE =
  /^(?:let me|let's|i'll|i will|i'm going to|i am going to|now (?:let me|i'll)|first,? (?:let me|i'll)|next,? (?:let me|i'll)|checking|looking)\b/i;

/** Pointing back at an answer already given, with no length cap (Gadfly's findings shape). */
const POINTS_BACK_RE = new RegExp(`${BACK_REF_RE.source}|\\babove\\b`, "i");

/** Empty, or a short back-reference with no findings block of its own. */
export function isWeakFinal(terminal: string): boolean {
  const text = terminal.trim();
  if (text === "") return true;
  return (
    byteLength(text) <= WEAK_FINAL_MAX_BYTES &&
    !containsFindingsBlock(text) &&
    BACK_REF_RE.test(normalizeForBackReference(text))
  );
}

export function isCitationsOnly(terminal: string): boolean {
  const text = terminal.trim();
  const label = CITATION_LABEL_RE.exec(text);
  if (!label) return false;
  const rest = text.slice(label[0].length);
  let links = 0;
  for (const line of rest.split("\n")) {
    if (line.trim() === "") continue;
    if (!LINK_RE.test(line)) return false;
    links++;
  }
  return links > 0;
}

export function isSummaryCloser(terminal: string): boolean {
  const text = terminal.trim();
  if (text === "" || byteLength(text) > SUMMARY_CLOSER_MAX_BYTES) return false;
  return SUMMARY_CLOSER_RE.test(text);
}

/** A terminal with no findings block of its own that points back at one. */
export function isFindingsBackReference(terminal: string): boolean {
  return (
    !containsFindingsBlock(terminal) && POINTS_BACK_RE.test(normalizeForBackReference(terminal))
  );
}

/**
 * Returns the text the user should see: `terminal` itself, unless it is one of
 * the degenerate shapes and an earlier assistant turn holds the real answer.
 * `messages` is the transcript before the terminal turn.
 */
export function finalOutput(terminal: string, messages: readonly Message[]): string {
  // A terminal holding its own findings block is an answer, whatever else it says.
  if (containsFindingsBlock(terminal)) return terminal;
  if (isCitationsOnly(terminal)) {
    const recovered = lastSubstantiveAssistantText(messages, terminal, "citations");
    if (recovered === null) return terminal;
    const tail = terminal.trim();
    return tail === "" ? recovered : `${recovered}\n\n${tail}`;
  }
  if (isFindingsBackReference(terminal)) {
    const recovered = lastFindingsTurnInWindow(messages);
    if (recovered !== null) {
      // A closer-sized terminal that also says something new ("See the previous
      // response; also `flush` drops the last batch.") is appended, not dropped.
      // A longer one is a narration of the answer (the sonnet reference case).
      const closer = terminal.trim();
      const addendum =
        byteLength(closer) <= SUMMARY_CLOSER_MAX_BYTES && carriesNewContent(closer, recovered);
      return addendum ? `${recovered}\n\n${closer}` : recovered;
    }
  }
  let mode: RecoveryMode;
  if (isWeakFinal(terminal)) {
    mode = "backRef";
  } else if (isSummaryCloser(terminal)) {
    mode = "summary";
  } else {
    return terminal;
  }
  const recovered = lastSubstantiveAssistantText(messages, terminal, mode);
  if (recovered === null) return terminal;
  // A closer that points back (or acks) and also says something new is an
  // addendum: kept after the recovered answer, never dropped.
  if (terminal.trim() !== "" && carriesNewContent(terminal, recovered)) {
    return `${recovered}\n\n${terminal.trim()}`;
  }
  return recovered;
}

function lastSubstantiveAssistantText(
  messages: readonly Message[],
  terminal: string,
  mode: RecoveryMode,
): string | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message === undefined) continue;
    // A compressed closer must never resurrect an answer to a different
    // question: the summary scan stops at the most recent user message.
    // Tool results are role "tool", so they do not stop it.
    if (mode === "summary" && message.role === "user") break;
    if (message.role !== "assistant") continue;
    const text = message.content.trim();
    // An earlier turn that itself only points back is not the answer: the
    // scan goes on to the newest turn that is.
    if (isWeakFinal(text)) continue;
    if (isSubstantiveAnswer(text, terminal, mode)) return text;
  }
  return null;
}

function isSubstantiveAnswer(text: string, terminal: string, mode: RecoveryMode): boolean {
  const length = byteLength(text);
  const dwarfs = length >= RECOVER_RATIO * byteLength(terminal.trim());
  // A summary closer carries real content: only the clearly fuller original
  // it compressed may displace it, at every length.
  if (mode === "summary" && !dwarfs) return false;
  if (length >= RECOVER_MIN_BYTES) return true;
  if (length < RECOVER_FLOOR_BYTES) return false;
  return dwarfs && !PREAMBLE_RE.test(text);
}

function lastFindingsTurnInWindow(messages: readonly Message[]): string | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message === undefined) continue;
    if (message.role === "user") return null;
    if (message.role === "assistant" && containsFindingsBlock(message.content)) {
      return message.content.trim();
    }
  }
  return null;
}

const NUMBER_RE = /\d+(?:[.,]\d+)*/g;
const BACKTICK_RE = /`([^`\n]+)`/g;
const FILE_LINE_RE = /[\w./-]+\.\w+:\d+(?:-\d+)?/g;
const CODE_IDENTIFIER_RE = /\b(?:[a-z]+[A-Z]\w*|[A-Za-z]\w*_\w+|[A-Z][a-z]+[A-Z]\w*)\b/g;

/**
 * Whether the closer says something the recovered answer does not: a number,
 * a code identifier, a backticked span or a file:line. Such a closer is a
 * correction or an addendum, and discarding it would publish stale text.
 */
export function carriesNewContent(closer: string, recovered: string): boolean {
  const tokens = [
    ...closer.matchAll(NUMBER_RE),
    ...closer.matchAll(BACKTICK_RE),
    ...closer.matchAll(FILE_LINE_RE),
    ...closer.matchAll(CODE_IDENTIFIER_RE),
  ].map((match) => match[1] ?? match[0]);
  return tokens.some((token) => !recovered.includes(token));
}
