import { convertToModelMessages } from 'ai';

let aiSdk5: boolean | undefined;

/**
 * Whether the `ai` in use is AI SDK 5, told by behaviour rather than by an export that
 * arrived in some later minor (6.0.0 must be recognised as 6): `convertToModelMessages`
 * returns the messages in 5 and a promise of them from 6.0.0 on. Asked once, on first use,
 * so importing the adapter runs nothing.
 */
export function isAiSdk5(): boolean {
  if (aiSdk5 === undefined) {
    const converted: unknown = convertToModelMessages([]);
    aiSdk5 = !isPromiseLike(converted);
    // An empty list converts without error; the promise is settled and dropped.
    if (!aiSdk5) (converted as Promise<unknown>).catch(() => undefined);
  }
  return aiSdk5;
}

function isPromiseLike(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
