import { Credential, Method, z } from 'mppx';

/**
 * The emulator's offline payment method, declared with mppx as any custom method would be:
 * `test`/`charge`, a request of `amount` and `currency`, any payload.
 */
export const testCharge = Method.from({
  name: 'test',
  intent: 'charge',
  schema: {
    credential: { payload: z.object({ proof: z.string() }) },
    request: z.object({ amount: z.string(), currency: z.string() }),
  },
});

/** The client side of `testCharge`; `alter` lets a test tamper with the echoed challenge. */
export function testMethod(
  alter: (
    challenge: Parameters<typeof Credential.serialize>[0]['challenge'],
  ) => typeof challenge = (challenge) => challenge,
) {
  return Method.toClient(testCharge, {
    createCredential: async ({ challenge }) =>
      Credential.serialize({ challenge: alter(challenge), payload: { proof: 'signed' } }),
  });
}
