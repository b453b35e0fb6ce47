import type { AuthChallenge } from '../errors/api-errors.js';

// The registry's parsers read one challenge or a few schemes only (`auth-header`,
// `http-auth-utils`), or do not export theirs (`oauth4webapi`); the grammar is small:
//   challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
//   auth-param = token BWS "=" BWS ( token / quoted-string )
// Each expression is sticky and its alternatives disjoint: linear in the header.
// A token is [!#$%&'*+\-.^_`|~0-9A-Za-z]+ (written out: a RegExp built from parts is kept by
// bundlers as a module-level side effect).
const SCHEME = /[ \t,]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)/y;
const TOKEN68 = /[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*(?=,|$)/y;
// A quoted string missing its end quote keeps what it read.
const PARAM =
  /[ \t,]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]*=[ \t]*(?:"((?:[^"\\]|\\[\s\S]?)*)"?|([!#$%&'*+\-.^_`|~0-9A-Za-z]+)?)[ \t]*/y;

/**
 * Parses a `WWW-Authenticate` value into its challenges (RFC 9110 §11.6.1). Malformed trailing
 * text is ignored, not thrown: the 402 it came with must still surface.
 */
export function parseWwwAuthenticate(header: string | null | undefined): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  let at = 0;
  const next = (pattern: RegExp) => {
    pattern.lastIndex = at;
    const match = pattern.exec(header ?? '');
    if (match) at = pattern.lastIndex;
    return match;
  };
  for (let scheme = next(SCHEME); scheme; scheme = next(SCHEME)) {
    const challenge: AuthChallenge = { scheme: scheme[1] as string, params: {} };
    challenges.push(challenge);
    const token68 = next(TOKEN68);
    if (token68) challenge.token68 = token68[1];
    if (token68 || !/[ \t]/.test(header?.[at] ?? '')) continue;
    const repeated = new Set<string>();
    for (let param = next(PARAM); param; param = next(PARAM)) {
      const name = (param[1] as string).toLowerCase();
      if (Object.hasOwn(challenge.params, name)) repeated.add(name);
      else challenge.params[name] = param[2]?.replace(/\\([\s\S])/g, '$1') ?? param[3] ?? '';
    }
    if (repeated.size > 0) challenge.repeated = [...repeated];
  }
  return challenges;
}
