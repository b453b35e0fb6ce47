/** The credential of an `Authorization: Bearer <credential>` header, or undefined for anything else. */
export function bearerCredential(header: string | undefined): string | undefined {
  return header?.match(/^Bearer\s+(\S+)$/i)?.[1];
}
