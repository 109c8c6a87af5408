import { UnsupportedMediaTypeError } from '../errors/client-errors';

const MEDIA_TYPE_MESSAGE =
  'The request body must be sent with Content-Type: application/json (charset, if given, utf-8).';

/**
 * Checks that a body is uncompressed JSON in UTF-8, before any of it is read.
 *
 * @param contentType - every value of `Content-Type`
 * @param contentEncoding - every value of `Content-Encoding`
 * @param transferEncoding - every value of `Transfer-Encoding`
 * @throws {@link UnsupportedMediaTypeError} 415 otherwise
 */
export function assertJsonBody(
  contentType: readonly string[] | undefined,
  contentEncoding: readonly string[] | undefined,
  transferEncoding?: readonly string[],
): void {
  // Node de-chunks a body but decodes no other transfer coding: `gzip, chunked` would reach the
  // reader compressed. Both headers say the same thing to us: the body is not plain JSON.
  const compressed =
    (contentEncoding !== undefined && !contentEncoding.every(isIdentityEncoding)) ||
    (transferEncoding !== undefined && !transferEncoding.every(isChunkedOnly));
  if (compressed) {
    throw new UnsupportedMediaTypeError(
      'content_encoding_unsupported',
      'Compressed request bodies are not accepted; send the JSON uncompressed (Content-Encoding: identity).',
    );
  }
  if (contentType?.length !== 1 || !isJsonUtf8(contentType[0] as string)) {
    throw new UnsupportedMediaTypeError('media_type_unsupported', MEDIA_TYPE_MESSAGE);
  }
}

// RFC 9110 §5.6.3: optional whitespace is spaces and tabs only. `String#trim` also strips U+00A0 and
// other Unicode spaces, which a header's Latin-1 bytes can hold, and would accept `application/json\xA0`.
const OWS_AROUND = /^[ \t]+|[ \t]+$/gu;

function trimOws(value: string): string {
  return value.replace(OWS_AROUND, '');
}

function isChunkedOnly(value: string): boolean {
  return value.split(',').every((coding) => {
    const name = trimOws(coding).toLowerCase();
    return name === 'chunked' || name === 'identity' || name === '';
  });
}

function isIdentityEncoding(value: string): boolean {
  return value.split(',').every((coding) => {
    const name = trimOws(coding).toLowerCase();
    return name === 'identity' || name === '';
  });
}

// RFC 9110 §8.3.1: type "/" subtype *( OWS ";" OWS parameter ), parameter = token "=" ( token / quoted-string ).
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
// Sticky, not anchored: each match starts where the previous one ended. An empty parameter (`;;`, a
// trailing `;`) is allowed by RFC 9110 §5.6.6 and matches the second alternative.
const PARAMETER = new RegExp(
  `[ \\t]*;[ \\t]*(?:(${TOKEN})=(${TOKEN}|"(?:[^"\\\\]|\\\\.)*")|(?=;|$))`,
  'y',
);

function isJsonUtf8(value: string): boolean {
  // The two spellings almost every client sends, answered without parsing.
  if (value === 'application/json' || value === 'application/json; charset=utf-8') return true;
  const semicolon = value.indexOf(';');
  const mediaType = trimOws(semicolon === -1 ? value : value.slice(0, semicolon)).toLowerCase();
  if (mediaType !== 'application/json') return false;
  if (semicolon === -1) return true;
  const rest = trimOws(value.slice(semicolon));
  PARAMETER.lastIndex = 0;
  let charsetSeen = false;
  while (PARAMETER.lastIndex < rest.length) {
    const match = PARAMETER.exec(rest);
    if (match === null) return false;
    if (match[1] === undefined || match[1].toLowerCase() !== 'charset') continue;
    if (charsetSeen) return false;
    charsetSeen = true;
    const raw = match[2] as string;
    const charset = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    if (charset.toLowerCase() !== 'utf-8') return false;
  }
  return true;
}
