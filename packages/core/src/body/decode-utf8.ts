import { InvalidBodyError } from '../errors/client-errors';

// fatal: malformed bytes and encoded surrogates are errors, not U+FFFD. ignoreBOM keeps a leading
// BOM in the text so that the JSON reader tolerates exactly one, whichever form the body came in.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes a body as strict UTF-8.
 *
 * @param bytes - the body
 * @returns the text, with a leading BOM kept
 * @throws {@link InvalidBodyError} `body_invalid_utf8`
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch (cause) {
    throw new InvalidBodyError('body_invalid_utf8', 'The request body is not valid UTF-8.', {
      cause,
    });
  }
}
