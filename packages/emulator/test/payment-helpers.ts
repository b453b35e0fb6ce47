/** One `Payment` challenge's parameters, parsed per RFC 9110 (quoted strings may hold commas). */
export type ChallengeParams = Record<string, string>;

export function paymentChallenges(header: string | null): ChallengeParams[] {
  const challenges: ChallengeParams[] = [];
  const pattern = /(?:^|,\s*)Payment\s+((?:[\w-]+="(?:[^"\\]|\\.)*"(?:,\s*(?=[\w-]+=))?)+)/g;
  for (const match of (header ?? '').matchAll(pattern)) {
    const params: ChallengeParams = {};
    for (const param of (match[1] ?? '').matchAll(/([\w-]+)="((?:[^"\\]|\\.)*)"/g)) {
      params[param[1] as string] = (param[2] as string).replace(/\\(.)/g, '$1');
    }
    challenges.push(params);
  }
  return challenges;
}

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** `Payment <base64url JSON>` echoing `challenge` (optionally altered) with `payload`. */
export function credentialFor(
  challenge: ChallengeParams,
  payload: unknown = { proof: 'test' },
  change: Partial<ChallengeParams> = {},
): string {
  const { id, realm, method, intent, request, expires, opaque } = { ...challenge, ...change };
  const echoed = { id, realm, method, intent, request, expires, opaque };
  return `Payment ${base64url(JSON.stringify({ challenge: echoed, payload }))}`;
}

/** Decodes base64url JSON (a `request` parameter, a `Payment-Receipt`). */
export function decodeJson(value: string | null | undefined): Record<string, unknown> {
  return JSON.parse(Buffer.from(value ?? '', 'base64url').toString('utf8'));
}

/** The challenge of `method` in a 402 answer. */
export function challengeOf(response: Response, method = 'test'): ChallengeParams {
  const found = paymentChallenges(response.headers.get('www-authenticate')).find(
    (challenge) => challenge.method === method,
  );
  if (!found)
    throw new Error(`no ${method} challenge in ${response.headers.get('www-authenticate')}`);
  return found;
}
