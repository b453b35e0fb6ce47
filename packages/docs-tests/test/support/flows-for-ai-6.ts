/**
 * The approval flows as the ai-sdk README tells an ai 6 user to write them: ai 6 has no
 * `responseMessages`, and its `response.messages` holds every step (on 7, the last step's
 * only). The ai 6 project of vitest.config.ts runs the flows through this, so the README's
 * advice for 6 is what runs there.
 */
export function flowForAi6(code: string, file: string): string {
  let changes = 0;
  const written = code
    .replace(/\(await (\w+)\.responseMessages\)/g, (_match, name: string) => {
      changes++;
      return `(await ${name}.response).messages`;
    })
    .replace(/\b(\w+)\.responseMessages\b/g, (_match, name: string) => {
      changes++;
      return `${name}.response.messages`;
    });
  // A flow that no longer says `responseMessages` would run unchanged: say so instead.
  if (changes < 2) throw new Error(`${file}: expected responseMessages to rewrite for ai 6`);
  return written;
}
