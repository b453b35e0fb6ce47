/** A random number generator with a seed, so every run of the benchmark mangles the same way. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a mangle may use besides the text it copies: another offer's text, and chance. */
export interface MangleContext {
  /** The same kind of text (link or reference) of another offer of the same search. */
  other: string;
  random: () => number;
}

/**
 * One way a model miscopies a long string. `link` mangles a buy link (inline mode);
 * `reference` does the same kind of damage to a `[[buy:123456789]]` reference.
 */
export interface Mangle {
  name: string;
  link(link: string, context: MangleContext): string;
  /** The same damage to a reference; `undefined` when a reference cannot suffer it. */
  reference(reference: string, context: MangleContext): string | undefined;
}

/** An index inside the part of a string that carries information (past `https://` or `[[`). */
function somewhere(text: string, from: number, random: () => number): number {
  return from + Math.floor(random() * (text.length - from - 1));
}

/** Damage to a reference may hit anything inside its brackets, `buy:` included. */
const REF_BODY_AT = '[['.length;

function dropAt(text: string, from: number, random: () => number): string {
  const at = somewhere(text, from, random);
  return text.slice(0, at) + text.slice(at + 1);
}

function repeatAt(text: string, from: number, random: () => number): string {
  const at = somewhere(text, from, random);
  return text.slice(0, at + 1) + text.slice(at);
}

function digitsOf(reference: string): string {
  return /\d+/.exec(reference)?.[0] ?? '';
}

/**
 * Realistic ways models corrupt long URLs (and the same damage to `[[buy:…]]` references), as
 * measured by catalogkit's link-corruption benchmark.
 */
export const MANGLES: Mangle[] = [
  {
    name: 'drop a character',
    link: (link, { random }) => dropAt(link, 8, random),
    reference: (reference, { random }) => dropAt(reference, REF_BODY_AT, random),
  },
  {
    name: 'repeat a character',
    link: (link, { random }) => repeatAt(link, 8, random),
    reference: (reference, { random }) => repeatAt(reference, REF_BODY_AT, random),
  },
  {
    name: 'decode %2F',
    link: (link) => link.replaceAll('%2F', '/'),
    reference: () => undefined,
  },
  {
    name: 'decode the wrapped URL',
    link: (link) => decodeURIComponent(link),
    reference: () => undefined,
  },
  {
    name: 'cut the query',
    link: (link) => (link.includes('?') ? link.slice(0, link.indexOf('?')) : link.slice(0, -12)),
    reference: (reference) => reference.slice(0, '[[buy:'.length + 4),
  },
  {
    name: 'truncate the signature',
    link: (link) => link.slice(0, -3),
    reference: (reference) => `${reference.slice(0, -5)}]]`,
  },
  {
    name: 'trailing punctuation',
    link: (link) => `${link}.`,
    reference: (reference) => `${reference}.`,
  },
  {
    name: 'lower case',
    link: (link) => link.toLowerCase(),
    reference: (reference) => reference.toUpperCase(),
  },
  {
    name: 'scheme dropped',
    link: (link) => link.replace(/^https?:\/\//, ''),
    reference: (reference) => `buy:${digitsOf(reference)}`,
  },
  {
    name: '& escaped as &amp;',
    link: (link) => link.replaceAll('&', '&amp;'),
    reference: () => undefined,
  },
  {
    name: 'two links spliced',
    link: (link, { other }) =>
      link.slice(0, link.lastIndexOf('=') + 1) + other.slice(other.lastIndexOf('=') + 1),
    reference: (reference, { other }) =>
      `[[buy:${digitsOf(reference).slice(0, 5)}${digitsOf(other).slice(5)}]]`,
  },
  {
    name: 'two links swapped',
    link: (_, { other }) => other,
    reference: (_, { other }) => other,
  },
];
