import type { AuthRequest } from '../auth/authenticator';
import {
  type ClientCertificate,
  headerCertificate,
  peerCertificate,
} from '../auth/mtls/client-certificate';
import type { AuthScheme } from '../errors/challenges';
import type { HeaderReader } from '../http/request';

/**
 * The {@link AuthRequest} the route hands its verifier. Its client certificate is a getter on the
 * prototype, not a closure per request: a request whose token is not bound to a certificate pays
 * two field writes for it, and never reads the connection or the header.
 *
 * @example
 * ```ts
 * const request = new RouteAuthRequest('POST', '/plants', headers, 'Bearer', undefined, socket, undefined);
 * request.clientCertificate?.thumbprint; // read now, once per connection
 * ```
 */
export class RouteAuthRequest implements AuthRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: HeaderReader;
  readonly scheme: AuthScheme;
  readonly url: string | undefined;
  readonly #socket: unknown;
  readonly #certificateHeader: string | undefined;

  /**
   * @param socket - the connection (`PlantRequest.socket`), the source without `certificateHeader`
   * @param certificateHeader - the service's `clientCertificateHeader`: then the only source
   */
  constructor(
    method: string,
    path: string,
    headers: HeaderReader,
    scheme: AuthScheme,
    url: string | undefined,
    socket: unknown,
    certificateHeader: string | undefined,
  ) {
    this.method = method;
    this.path = path;
    this.headers = headers;
    this.scheme = scheme;
    this.url = url;
    this.#socket = socket;
    this.#certificateHeader = certificateHeader;
  }

  /** Behind a trusted proxy, its header only: the connection's certificate would be the proxy's. */
  get clientCertificate(): ClientCertificate | undefined {
    const header = this.#certificateHeader;
    return header === undefined
      ? peerCertificate(this.#socket)
      : headerCertificate(this.headers(header));
  }
}
