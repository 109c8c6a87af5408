/**
 * Reads a response's body as UTF-8 text, stopping (and cancelling the stream) as soon as it passes
 * `maxBytes`: a provider's answer (a key set, an introspection answer) is a few kilobytes, and a
 * broken or hostile one must not fill the memory.
 *
 * @param response - the provider's answer
 * @param maxBytes - the most bytes read
 * @param what - what the answer is, for the error message: `The key set`
 * @returns the text; empty for a response without a body
 * @throws Error when the body is larger than `maxBytes` or is not bytes
 * @example
 * ```ts
 * const body: unknown = JSON.parse(await readLimitedText(response, 1024 * 1024, 'The key set'));
 * ```
 */
export async function readLimitedText(
  response: Response,
  maxBytes: number,
  what: string,
): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes || response.body === null) {
    await response.body?.cancel();
    if (declared > maxBytes) throw new Error(`${what} answer is too large`);
    return '';
  }
  const reader = response.body.getReader();
  // TextDecoder, not Buffer: this runs on runtimes without Node built-ins (Workers).
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    // Checked, not asserted: the stream's element type differs between Node's and Bun's typings.
    const chunk: unknown = read.value;
    if (!(chunk instanceof Uint8Array)) throw new Error(`${what} answer is not bytes`);
    size += chunk.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`${what} answer is too large`);
    }
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}
