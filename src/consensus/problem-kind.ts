/**
 * What kind of defect a finding claims (injection, resource leak, race, missing timeout, …),
 * from the words reviewers of every model use for it. Two findings a few lines apart that share
 * identifiers can still be two problems: a SQL injection and a leaked connection in the same
 * query call. Text similarity sees the shared `conn.query`; the kind sees two claims. It is
 * also positive evidence: "ReDoS" and "catastrophic backtracking" share no word but one kind.
 *
 * Kinds are bits of a number, so comparing two findings is two `&`s.
 */

/** One defect class and the phrases that name it (matched on lowercased text). */
interface KindRule {
  kind: string;
  pattern: RegExp;
}

// Each pattern names the defect, not its consequence: "throws" or "crash" describe what
// follows from a null dereference, a bounds error or a parse error alike, so they are no kind.
// Prefer phrases to single words where one word serves two kinds ("leak": a connection or a
// secret; "escape": output encoding or a symlink).
const RULES: readonly KindRule[] = [
  {
    kind: "injection",
    pattern:
      /inject|\bsqli\b|\bxss\b|cross[- ]site scripting|unsaniti[sz]|unescaped|without escaping|output encoding|parameteri[sz]|prepared statement|bound parameter|as a parameter|placeholder|(?:concatenat|interpolat|splic)\w* (?:\w+ ){0,4}(?:sql|query|statement|markup|html|command|shell)|(?:sql|query|statement|html|markup|command)s? (?:\w+ ){0,4}(?:concatenat|interpolat|splic|template (?:literal|string))/,
  },
  { kind: "csrf", pattern: /csrf|xsrf|cross[- ]site request forgery/ },
  {
    kind: "resource-leak",
    pattern:
      /(?:connection|handle|descriptor|socket|stream|goroutine)s? (?:\w+ ){0,4}(?:leak|not (?:closed|released|returned|destroyed)|never (?:closed|released|returned|given back|exits))|(?:connection|handle|descriptor|socket|goroutine|memory|resource) leak|leak(?:s|ed|ing)? (?:\w+ ){0,3}(?:connection|handle|descriptor|socket|goroutine)|\bnot (?:closed|released)|never (?:closed|released)|\.close\b|close\(\)|\brelease\(\)|try[-/ ]?finally|try-with-resources|file descriptor|open-files limit|pool (?:exhaustion|slowly drains)|runs out of sockets/,
  },
  {
    kind: "exposure",
    pattern:
      /stack trace|stack information|(?:its|the) stack\)|and its stack|err\.stack|disclos|information leak|(?:token|secret|credential|password|card number|pii|path|layout|customer record|customer object)s? (?:\w+ ){0,4}(?:leak|expos|logged|written to (?:the )?(?:\w+ )?logs?)|(?:leak|expos)\w* (?:\w+ ){0,3}(?:token|secret|credential|stack|(?:host|absolute|internal) path|host|internal)|(?:to|into|in) (?:the )?(?:debug |info )?logs?\b|debug logging|\blogs? (?:the|every)|exception details|error details|internal error/,
  },
  {
    kind: "hard-coded-secret",
    pattern:
      /hard-?coded (?:\w+ ){0,2}(?:secret|key|password|credential|token)|(?:secret|key|password|credential|token)s? (?:\w+ ){0,3}hard-?coded|literal (?:committed|in (?:the )?source)|credential literal|committed to (?:the )?(?:repository|version control)|secret manager|plaintext constant/,
  },
  {
    kind: "weak-crypto",
    pattern:
      /\bmd5\b|\bsha-?1\b|weak hash|unsalted|\bsalt\b|crackable|cracked|rainbow|bcrypt|scrypt|argon|\bkdf\b|pbkdf|password hashing/,
  },
  {
    kind: "timing",
    pattern: /timing|constant[- ]time|compare_digest|timingsafeequal|side[- ]channel/,
  },
  {
    kind: "magic-number",
    pattern:
      /magic (?:number|value|constant)|hard-?coded (?:\w+ ){0,2}(?:count|limit|number|value|size|delay)|named constant/,
  },
  { kind: "expiry", pattern: /expir|\bexp\b|\bttl\b|revocation|revoke/ },
  {
    kind: "access-control",
    pattern:
      /authori[sz]ation check|not authori[sz]ed|unauthori[sz]ed (?:access|user)|ownership|\bidor\b|access control|belongs? to (?:the )?(?:caller|requesting|user)|another (?:user|customer|account)|each other's (?:files|data|records|orders|account)|any user|unauthenticated|without authentication|requireauth|rate limit|brute force|unlimited attempts/,
  },
  {
    kind: "traversal",
    pattern:
      /travers|\.\.\/|`\.\.`|\.\. segments|parent[- ]directory|dot-dot|not confined|confinement|without normali[sz]/,
  },
  { kind: "symlink", pattern: /symlink|symbolic link|realpath/ },
  {
    kind: "deserialization",
    pattern: /pickle|deseriali[sz]|unpickl|yaml\.load|remote code execution|\brce\b/,
  },
  {
    kind: "redos",
    pattern:
      /redos|regex dos|regular expression denial|backtrack|nested quantifier|nested repetition/,
  },
  {
    kind: "unbounded-size",
    pattern:
      /unbounded (?:read|upload|body|size|growth)|without bound|grows? (?:without|unbounded)|no eviction|memory leak|size (?:limit|cap)|without (?:a )?(?:size )?limit|no size|no (?:output )?cap|memory exhaustion|exhaust (?:process )?memory|into memory|in memory|in ram|gigabyte|limitreader|filesize|huge (?:file|response|body|upload)/,
  },
  {
    kind: "race",
    pattern:
      /\brac(?:e|es|y|ing)\b|data race|concurrent(?:ly)? (?:\w+ )?(?:map|access|read|write|request|run|update)|thread[- ]safe|synchroni[sz]|mutex|mutual exclusion|deadlock|\block\(\)|toctou|check-then-act|time-of-check|exists\(\) check/,
  },
  {
    kind: "timeout",
    pattern:
      /time ?out|deadline|\bhangs?\b|hang indefinitely|indefinitely|block(?:s|ed)? forever|waits? forever|stall/,
  },
  {
    kind: "null",
    pattern:
      /\bnull\b|\bnil\b|undefined|\bnone\b|nullpointer|\bnpe\b|dereferenc|no rows|empty result/,
  },
  {
    kind: "off-by-one",
    pattern:
      /off[- ]by[- ]one|fencepost|[01]-based|(?:one|zero)-based|skips? the (?:first|last)|(?:last|first|final) page|upper bound .*exclusive/,
  },
  {
    kind: "bounds",
    pattern:
      /index out of range|out of (?:range|bounds)|out-of-bounds|bounds check|length (?:check|validation)|without checking its length|\blen\(|indexerror/,
  },
  {
    kind: "integer-overflow",
    pattern:
      /integer (?:overflow|truncation)|(?:size|length|count|multiplication|arithmetic) (?:\w+ ){0,2}(?:over|under)flow|\bunderflows?\b|wraps? (?:to|around)|can wrap|truncat(?:es|ion)|int32|maxint|size_max/,
  },
  {
    kind: "buffer-overflow",
    pattern:
      /buffer overflow|overflows? (?:the |a )?(?:\w+ ){0,3}buffer|strcpy|sprintf|\bgets\(|smash|writes? past/,
  },
  { kind: "division-by-zero", pattern: /zero ?division|divi(?:de|sion) by zero|empty batch/ },
  {
    kind: "ignored-error",
    pattern:
      /swallow|ignored|discard|unwrap\(\)|\.unwrap\b|unchecked unwrap|unhandled|uncaught|not caught|nothing catches|try\/catch|try-catch|error handling|blank identifier|bare .?except|except: pass|not propagated|propagates? out/,
  },
  {
    kind: "retry",
    pattern:
      /retri(?:ed|es) forever|(?:unbounded|infinite|endless) retr|retr(?:y|ies) (?:\w+ ){0,3}(?:without|no) (?:backoff|delay|limit)|backoff|back off|busy loop|tight loop|\bspins? at|hammers?/,
  },
  {
    kind: "idempotency",
    pattern: /idempoten|charged? (?:the customer )?twice|more than once|duplicate charges?/,
  },
  {
    kind: "work-in-loop",
    pattern:
      /n\+1|query per|per (?:item|row|iteration)|inside (?:the )?(?:per-item )?loop|round trips|select per|in_bulk|quadratic|o\(n²\)|o\(n\^2\)/,
  },
  {
    // A value taken without a range check (a negative rate, a quantity above the stock): a
    // different claim from rounding or overflow on the same arithmetic line.
    kind: "unvalidated-value",
    pattern:
      /can be negative|negative (?:rate|amount|value|quantity|price|discount|count)|(?:not|never|isn't) (?:range[- ])?validated|without (?:range )?validation|no (?:range )?validation|unvalidated|not range[- ]checked/,
  },
  { kind: "money", pattern: /\bfloats?\b|floating[- ]point|\bdecimal|rounding|\bcurrency|money/ },
  {
    kind: "http-status",
    pattern:
      /status code|http status|wrong status|instead of (?:a )?[45]\d\d|answered with [45]\d\d/,
  },
];

const BIT = new Map(RULES.map((rule, index) => [rule.kind, 1 << index]));

// One pass over the text finds each place where some kind is named; only there is every rule
// tried (anchored, so exactly the rules that match from that place). Testing each rule over the
// whole text instead costs a scan per rule.
const ANY_KIND = new RegExp(RULES.map((rule) => `(?:${rule.pattern.source})`).join("|"), "g");
const ANCHORED = RULES.map((rule) => new RegExp(rule.pattern.source, "y"));

/** The kinds a text names, as bits (see `kindNames`). */
export function problemKinds(text: string): number {
  const lower = text.toLowerCase();
  let kinds = 0;
  ANY_KIND.lastIndex = 0;
  for (let match = ANY_KIND.exec(lower); match !== null; match = ANY_KIND.exec(lower)) {
    for (const [index, rule] of ANCHORED.entries()) {
      rule.lastIndex = match.index;
      if (rule.test(lower)) kinds |= 1 << index;
    }
    ANY_KIND.lastIndex = match.index + 1;
  }
  return kinds;
}

/** The kinds a text names, testing each rule on its own: what `problemKinds` must equal. */
export function problemKindsRuleByRule(text: string): number {
  const lower = text.toLowerCase();
  let kinds = 0;
  for (const [index, rule] of RULES.entries()) {
    if (rule.pattern.test(lower)) kinds |= 1 << index;
  }
  return kinds;
}

/** The names of the kinds in `kinds`, for tests and reports. */
export function kindNames(kinds: number): string[] {
  return RULES.filter((rule) => (kinds & (BIT.get(rule.kind) ?? 0)) !== 0).map((rule) => rule.kind);
}

/** What a finding claims (its title's kinds) and everything its text names. */
export interface FindingKinds {
  /** The kinds its title names; 0 when the title names none. */
  claim: number;
  /** The kinds its title and body name. */
  all: number;
}

// The body is read only as far as what identifies a problem is said (see text-profile.ts).
const MAX_TITLE_CHARS = 500;
const MAX_BODY_CHARS = 4_000;

export function findingKinds(text: { title: string; body: string }): FindingKinds {
  const claim = problemKinds(text.title.slice(0, MAX_TITLE_CHARS));
  return { claim, all: claim | problemKinds(text.body.slice(0, MAX_BODY_CHARS)) };
}

/**
 * Two findings that each claim a kind of defect, where neither's claim is named anywhere in
 * the other's text: different problems, however close and however many identifiers they share.
 */
export function kindsConflict(a: FindingKinds, b: FindingKinds): boolean {
  return a.claim !== 0 && b.claim !== 0 && (a.claim & b.all) === 0 && (b.claim & a.all) === 0;
}

/** Two findings whose titles claim the same kind of defect. */
export function kindsAgree(a: FindingKinds, b: FindingKinds): boolean {
  return (a.claim & b.claim) !== 0;
}
