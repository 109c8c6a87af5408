import type { DeadlineList } from '../common/deadline-list';
import { decodeUtf8 } from './decode-utf8';
import { InvalidBodyError, PayloadTooLargeError } from '../errors/client-errors';
import { readBody } from './read-body';
import { fitsWhole, readWholeBody } from './read-whole-body';
import { readPlantJson } from './read-plant-json';
import type { BodySource, HeaderReader, PlantRequest, WholeBody } from '../http/request';
import { candidateFromParsed } from './parsed-body';
import type { PlantCandidate } from './plant-candidate';

/** Body limits of a service. */
export interface BodyLimits {
  readonly limitBytes: number;
  readonly timeoutMs: number;
  /** The service's body deadlines (one timer for all bodies in flight). */
  readonly deadlines?: DeadlineList | undefined;
}

/**
 * Reads, decodes and parses the body of a create request, in that order; the schema step
 * (`validatePlant`) comes after it, in the service. The content type has been checked already.
 *
 * @param request - the request
 * @param headers - its headers
 * @param limits - size and time limits
 * @param onRead - called once the whole body is read, before it is parsed: a refusal after it
 *   leaves nothing on the connection
 * @returns what the body holds for the plant's members, exactly as sent
 * @throws an {@link InvalidBodyError}, `PayloadTooLargeError` or `RequestTimeoutError`
 */
export async function readPlantBody(
  request: PlantRequest,
  headers: HeaderReader,
  limits: BodyLimits,
  onRead?: () => void,
): Promise<PlantCandidate> {
  // A declared length over the limit is refused before a byte is read, and also when a host parser
  // (with a limit of its own) read the body first: the route's limit is the same either way.
  const declared = headers('content-length');
  if (declared?.length === 1 && Number(declared[0]) > limits.limitBytes) {
    throw new PayloadTooLargeError(limits.limitBytes);
  }
  const { parsedBody, signal } = request;
  let body = request.body;
  if (isWholeBody(body)) {
    // A declared length within the limit: the runtime's own buffered read, no stream reader loop.
    if (fitsWhole(declared, limits.limitBytes)) {
      const bytes = await readWholeBody(
        body,
        signal === undefined ? limits : { ...limits, signal },
      );
      onRead?.();
      return readPlantJson(decodeUtf8(bytes));
    }
    body = body.body;
  }
  if (body === undefined || body === null) {
    // What a host's parser left: text or bytes (express.text(), raw()) are still the exact body.
    if (typeof parsedBody === 'string' || parsedBody instanceof Uint8Array) body = parsedBody;
    // Parsers make `{}` of an empty body: the route answers what was sent, not what they made.
    else if (parsedBody !== undefined && declared?.[0] !== '0') {
      return candidateFromParsed(parsedBody);
    } else throw new InvalidBodyError('body_empty', 'The body is empty; send one JSON object.');
  }
  const raw = await readBody(body, signal === undefined ? limits : { ...limits, signal });
  onRead?.();
  if (typeof raw !== 'string') return readPlantJson(decodeUtf8(raw));
  // Text was decoded by someone else (express.text(), a parser's string rawBody), and lenient
  // decoders turn invalid UTF-8 into U+FFFD: from the text alone, a client's U+FFFD and a byte the
  // decoder replaced look the same, and the route stores nothing it cannot prove was sent.
  if (raw.includes('\uFFFD')) throw new InvalidBodyError('body_decoded_by_host', DECODED_BY_HOST);
  return readPlantJson(raw);
}

function isWholeBody(body: BodySource | null | undefined): body is WholeBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Partial<WholeBody>).arrayBuffer === 'function' &&
    'body' in body
  );
}

// Only the client's part: the service's logger tells the server how to keep the bytes instead.
const DECODED_BY_HOST =
  'The body holds U+FFFD, which this server cannot tell apart from a byte that was not UTF-8; send the character as the JSON escape \\ufffd.';
