import type { PaymentChallenge } from '@catalogkit/core/payment';
import type { Challenge, Method } from 'mppx';

/** mppx client payment methods, as `Mppx.create({ methods })` takes them (tuples allowed). */
export type MppxMethods = readonly (Method.AnyClient | readonly Method.AnyClient[])[];

/** The methods as one flat list (`tempo()` returns a tuple of charge and session). */
export function flattenMethods(methods: MppxMethods): Method.AnyClient[] {
  return methods.flatMap((entry): Method.AnyClient[] =>
    Array.isArray(entry)
      ? [...(entry as readonly Method.AnyClient[])]
      : [entry as Method.AnyClient],
  );
}

/**
 * The challenge as mppx models it. The `request` is the decoded object: mppx re-encodes it
 * (canonical JSON) when it echoes the challenge in the credential, as the server signed it.
 */
export function toMppxChallenge(challenge: PaymentChallenge): Challenge.Challenge {
  const { params } = challenge;
  const optional = (name: 'expires' | 'description' | 'digest' | 'opaque') =>
    params[name] === undefined ? {} : { [name]: params[name] };
  return {
    id: challenge.id,
    realm: challenge.realm,
    method: challenge.method,
    intent: challenge.intent,
    request: challenge.request,
    ...optional('expires'),
    ...optional('description'),
    ...optional('digest'),
    ...optional('opaque'),
  };
}

/** The configured method that pays `challenge` (same name and intent, and it agrees). */
export function methodFor(
  methods: readonly Method.AnyClient[],
  challenge: PaymentChallenge,
): Method.AnyClient | undefined {
  const wire = toMppxChallenge(challenge);
  return methods.find(
    (method) =>
      method.name === challenge.method &&
      method.intent === challenge.intent &&
      (method.canHandleChallenge?.({ challenge: wire }) ?? true),
  );
}
