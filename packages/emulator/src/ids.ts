/**
 * The emulator's id format: a prefix and a four-digit sequence number (`cl_0001`,
 * `conv_0012`), the same for seeded data and ids made at run time.
 */
export function sequentialId(prefix: string, sequence: number): string {
  return `${prefix}${sequence.toString().padStart(4, '0')}`;
}
