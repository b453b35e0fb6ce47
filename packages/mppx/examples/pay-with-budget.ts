import { CatalogClient, PaymentRequiredError } from '@catalogkit/core';
import { startEmulator } from '@catalogkit/emulator';
import { formatPaymentAmount, mppxPayment } from '@catalogkit/mppx';
import { Credential, Method, z } from 'mppx';

// The emulator settles an offline "test" method; with the real service pass your wallet's
// methods instead, e.g. tempo({ account }) from 'mppx/client'.
const testMethod = Method.toClient(
  Method.from({
    name: 'test',
    intent: 'charge',
    schema: {
      credential: { payload: z.object({ proof: z.string() }) },
      request: z.object({ amount: z.string(), currency: z.string() }),
    },
  }),
  {
    createCredential: async ({ challenge }) =>
      Credential.serialize({ challenge, payload: { proof: 'signed' } }),
  },
);

const emulator = await startEmulator();
const payment = mppxPayment({
  methods: [testMethod],
  // Amounts in the currency's smallest unit: at most 50 cents a call, 50 cents in all.
  budget: [{ currency: 'usd', maxPerCall: '50', total: '50' }],
  approve: async (challenge) => {
    console.log(`  approve ${formatPaymentAmount(challenge)} for this call? yes`);
    return true;
  },
  onReceipt: (receipt) => console.log(`  receipt ${receipt.reference} (${receipt.status})`),
});
const client = new CatalogClient({
  apiKey: emulator.keys.paymentRequired, // this key's calls are answered 402 until paid
  baseUrl: emulator.baseUrl,
  mcpUrl: emulator.mcpUrl,
  payment,
});

for (const call of [1, 2, 3]) {
  try {
    const { websites } = await client.websites.search({ query: 'outdoor' });
    const left = payment.budget.remaining('usd');
    console.log(`call ${call}: ${websites.length} websites, ${left} cents of budget left`);
  } catch (error) {
    if (!(error instanceof PaymentRequiredError)) throw error;
    console.log(`call ${call}: not paid (the budget is used up): ${error.reason}`);
  }
}
await emulator.close();
