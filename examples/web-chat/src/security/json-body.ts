/** A request body read as JSON, or why it was refused (with the status to answer). */
export type JsonBody =
  | { ok: true; value: unknown }
  | { ok: false; status: 400 | 413 | 415; reason: string };

/** Whether the request says it carries JSON (`application/json`, any parameters). */
export function isJsonRequest(request: Request): boolean {
  const type = request.headers.get('content-type') ?? '';
  return type.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

function tooLarge(maxBytes: number): JsonBody {
  return { ok: false, status: 413, reason: `The body is larger than ${maxBytes} bytes.` };
}

/** The body's bytes, or undefined as soon as they pass `maxBytes` (the rest is never read). */
async function readBounded(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads a JSON body of at most `maxBytes`: a declared or actual size past it is refused
 * before parsing (413), so memory stays bounded whatever the client sends; a body that is
 * not UTF-8 or not JSON gets 400 with the reason.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  if (!isJsonRequest(request)) {
    return { ok: false, status: 415, reason: 'Send the body as Content-Type: application/json.' };
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) return tooLarge(maxBytes);
  const bytes = await readBounded(request, maxBytes);
  if (bytes === undefined) return tooLarge(maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, status: 400, reason: 'The body is not valid UTF-8.' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, status: 400, reason: 'The body is not valid JSON.' };
  }
}
