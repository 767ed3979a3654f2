// Types of iri-grammar (index.js).

/** `uri` (RFC 3986), `iri` (RFC 3987, the default), `leiri` (W3C LEIRI note),
 *  `iri-2001` (draft-masinter-url-i18n-07; validation only). */
export type Grammar = 'uri' | 'iri' | 'leiri' | 'iri-2001' | (string & {});

export interface RuleOptions {
  grammar?: Grammar;
  /** Any rule of the grammar by its ABNF name (`IRI`, `ipath-abempty`,
   *  `IPv6address`; case-insensitive, `_` for `-`). Default: the reference rule
   *  (`IRI-reference`, `URI-reference`, `LEIRI-reference`). */
  rule?: string;
}

export interface GrammarOptions {
  grammar?: Exclude<Grammar, 'iri-2001'>;
}

export type Level = 'simple' | 'syntax' | 'scheme';

export interface NormalizeOptions extends GrammarOptions {
  /** RFC 3987 §5.3: default `syntax`. */
  level?: Level;
  /** Character normalization (§5.3.2.2): `true` or `'nfc'`, `'nfkc'`. */
  nfc?: boolean | 'nfc' | 'nfkc';
}

export interface ConvertOptions extends GrammarOptions {
  /** Convert the labels of a DNS host with IDNA (ToASCII / ToUnicode). */
  idna?: boolean;
}

/** RFC 3986 §3's components; `null` when absent, `""` when empty. */
export interface Components {
  scheme: string | null;
  authority: string | null;
  userinfo: string | null;
  host: string | null;
  hostKind: 'reg-name' | 'ipv4' | 'ipv6' | 'ipvfuture' | null;
  port: string | null;
  path: string;
  query: string | null;
  fragment: string | null;
}

/** A string that does not match: where, and why. Where (the offsets, `found`,
 *  `startRule`) comes from the core module; why (`rule`, `expected`, `component`,
 *  `explanation`) from the full one, which Node, Deno and Bun load by themselves and
 *  a browser with `loadFull()`: without it, those are null, [], null and null, and
 *  `explained` is false. */
export class IriError extends Error {
  name: 'IriError';
  /** The string as given. */
  input: string;
  /** Where the match stopped, in UTF-16 code units (the string's own index). */
  offset: number;
  /** The same in code points (the "char" of the message). */
  codePointOffset: number;
  /** The same in the string's UTF-8 (a lone surrogate counts 3 bytes). */
  byteOffset: number;
  /** The innermost rule being matched there, or null (or not explained). */
  rule: string | null;
  /** The rule the whole string was matched against. */
  startRule: string;
  grammar: string;
  /** What each rule would have accepted there. */
  expected: string[];
  /** The character there (a lone surrogate as itself), or null at the end. */
  found: string | null;
  /** The component to blame (`scheme`, `userinfo`, `host`, `port`), or null. */
  component: string | null;
  /** What each rule expected, on one line; null when not explained. */
  explanation: string | null;
  /** Whether the full module explained the error (rule, expected, component). */
  explained: boolean;
}

/** Loads the full module (iri_grammar_full.wasm): errors explained, the `idna`
 *  options, `nfc`, the `scheme` level, the rules the automata leave to the
 *  combinators, the `iri-2001` grammar. Node, Deno and Bun load it by themselves
 *  when a call first needs it; a browser awaits this once first (until then such a
 *  call throws an Error that says so). */
export function loadFull(): Promise<void>;

export function isValid(s: string, options?: RuleOptions): boolean;
export function isValidMany(strings: Iterable<string>, options?: RuleOptions): boolean[];
export function validator(options?: RuleOptions): (s: unknown) => boolean;
/** Throws an IriError when `s` does not match. */
export function check(s: string, options?: RuleOptions): void;
export function rules(grammar?: Grammar): string[];
export function parse(s: string, options?: GrammarOptions): Components;
export function resolve(base: string, reference: string, options?: GrammarOptions): string;
export function toUri(s: string, options?: ConvertOptions): string;
export function toIri(s: string, options?: ConvertOptions): string;
export function normalize(s: string, options?: NormalizeOptions): string;
/** true, false, or null when it cannot be known. */
export function equivalent(a: string, b: string, options?: NormalizeOptions): boolean | null;
