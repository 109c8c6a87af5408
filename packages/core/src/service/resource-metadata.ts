import type { AcceptedCredentials } from '../auth/authenticator';
import { isIssuerUrl } from '../auth/issuer-url';
import { MethodNotAllowedError } from '../errors/client-errors';
import { errorAnswer } from './answer';
import { publicUrlOption } from '../http/public-url';
import { declaresBody } from '../http/declared-body';
import { headerReader, type HeaderSource, type PlantAnswer } from '../http/request';
import { checkKnownOptions, describeValue, optionError } from '../options/check-options';

/** Options of the RFC 9728 protected-resource metadata: `createPlantService({ resourceMetadata })`. */
export interface ResourceMetadataOptions {
  /**
   * The resource identifier clients ask tokens for (RFC 8707) and that tokens name in `aud`: an
   * https URL. Default: the audience of `jwtBearer`, when it has exactly one and it is a URL.
   */
  readonly resource?: string | undefined;
  /**
   * `authorization_servers`, published as given. Default: the issuers `jwtBearer` accepts that are
   * `https:` URLs (`http:` on a loopback host) with their keys at a `jwksUri`; the member is left out
   * when there is none.
   */
  readonly authorizationServers?: readonly string[] | undefined;
  /** `scopes_supported`. Default: the scopes `jwtBearer` requires. */
  readonly scopesSupported?: readonly string[] | undefined;
  /** `resource_name`, for people. */
  readonly resourceName?: string | undefined;
  /** `resource_documentation`: a URL of documentation for developers. */
  readonly resourceDocumentation?: string | undefined;
}

/** The RFC 9728 metadata endpoint: which paths it answers, and its answer. */
export interface ResourceMetadataEndpoint {
  /** The well-known paths, at the host's root: the one derived from `resource`, and the bare one. */
  readonly paths: readonly string[];
  /** The URL named as `resource_metadata` in every challenge. */
  readonly url: string;
  /** The metadata document. */
  readonly document: Readonly<Record<string, unknown>>;
  /** Whether a request path is one of `paths`. */
  serves(path: string): boolean;
  /**
   * The answer: 200 with the document for GET and HEAD, 405 for any other method. A request whose
   * head declares a body is answered `Connection: close`: the metadata reads no body, and the
   * connection is not kept for Node to read one.
   *
   * @param method - the request method
   * @param headers - the request's headers; without them the connection is kept
   */
  answer(method: string, headers?: HeaderSource): PlantAnswer;
}

const KNOWN = new Set([
  ...['resource', 'authorizationServers', 'scopesSupported', 'resourceName'],
  'resourceDocumentation',
]);
const WELL_KNOWN = '/.well-known/oauth-protected-resource';
const HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json; charset=utf-8',
  // Public and the same for everyone; clients may keep it an hour.
  'cache-control': 'public, max-age=3600',
});

function stringList(option: string, value: unknown, fallback: readonly string[]): string[] {
  if (value === undefined) return [...fallback];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item !== '')) {
    return optionError(
      'Plantstore',
      option,
      'must be an array of non-empty strings',
      describeValue(value),
    );
  }
  return [...(value as string[])];
}

/** The auth's authorization servers; for a verifier that names only its issuers, those that are URLs. */
function defaultServers(accepts: AcceptedCredentials | undefined): readonly string[] {
  return accepts?.authorizationServers ?? (accepts?.issuers ?? []).filter(isIssuerUrl);
}

function defaultResource(accepts: AcceptedCredentials | undefined): unknown {
  const audiences = accepts?.audiences ?? [];
  if (audiences.length === 1 && /^https?:\/\//iu.test(audiences[0] ?? '')) return audiences[0];
  return optionError(
    'Plantstore',
    'resourceMetadata.resource',
    'is required unless jwtBearer has exactly one audience that is a URL',
    'nothing',
  );
}

/**
 * Builds the RFC 9728 protected-resource metadata once, at start-up, from the same configuration
 * that checks tokens: the issuers that are authorization servers (URLs with published keys, never a
 * shared-secret issuer) as `authorization_servers`, the required scopes, `header` as the
 * only bearer method, DPoP's algorithms and whether it is required, and whether certificate-bound
 * tokens are supported.
 *
 * @param value - the `resourceMetadata` option (`true` for every default)
 * @param accepts - what the service's auth accepts, when it says
 * @returns the endpoint, or `undefined` when the option is absent
 * @throws TypeError for a bad option, or a `resource` that is not one of jwtBearer's audiences (tokens
 *   asked for it would be refused)
 * @example
 * ```ts
 * createResourceMetadata({ resource: 'https://api.example.com/plants' }, auth.accepts)?.paths;
 * // ['/.well-known/oauth-protected-resource/plants', '/.well-known/oauth-protected-resource']
 * ```
 */
export function createResourceMetadata(
  value: unknown,
  accepts: AcceptedCredentials | undefined,
): ResourceMetadataEndpoint | undefined {
  if (value === undefined || value === false) return undefined;
  const options: ResourceMetadataOptions = value === true ? {} : (value as ResourceMetadataOptions);
  checkKnownOptions('Plantstore', options, KNOWN, 'resourceMetadata.');
  const given = options.resource ?? defaultResource(accepts);
  const normalised = publicUrlOption('Plantstore', 'resourceMetadata.resource', given);
  const audiences = accepts?.audiences ?? [];
  const audience =
    audiences.find((entry) => entry === given) ??
    audiences.find((entry) => sameResource(entry, normalised));
  if (audiences.length > 0 && audience === undefined) {
    optionError(
      'Plantstore',
      'resourceMetadata.resource',
      `must be one of jwtBearer's audiences (${audiences.join(', ')}), or tokens asked for it are refused`,
      normalised,
    );
  }
  // The audience exactly as tokens must name it: a client asks its authorization server for a token
  // for the advertised `resource` (RFC 8707), and `aud` is compared as a string, trailing slash
  // included. The well-known paths come from the normalised URL (RFC 9728 §3.1).
  const resource = audience ?? normalised;
  const { origin, pathname } = new URL(normalised);
  const suffixed = pathname === '/' ? WELL_KNOWN : `${WELL_KNOWN}${pathname}`;
  const paths = suffixed === WELL_KNOWN ? [WELL_KNOWN] : [suffixed, WELL_KNOWN];
  const servers = stringList(
    'resourceMetadata.authorizationServers',
    options.authorizationServers,
    defaultServers(accepts),
  );
  const scopes = stringList(
    'resourceMetadata.scopesSupported',
    options.scopesSupported,
    accepts?.scopes ?? [],
  );
  const document: Record<string, unknown> = { resource };
  if (servers.length > 0) document['authorization_servers'] = servers;
  if (scopes.length > 0) document['scopes_supported'] = scopes;
  document['bearer_methods_supported'] = ['header'];
  if (accepts?.dpop !== undefined) {
    document['dpop_signing_alg_values_supported'] = [...accepts.dpop.algorithms];
    document['dpop_bound_access_tokens_required'] = accepts.dpop.required;
  }
  // RFC 9728 §2: the member says certificate-bound tokens are supported; it is left out when not.
  if (accepts?.mtls !== undefined) document['tls_client_certificate_bound_access_tokens'] = true;
  if (options.resourceName !== undefined) {
    if (typeof options.resourceName !== 'string' || options.resourceName === '') {
      optionError(
        'Plantstore',
        'resourceMetadata.resourceName',
        'must be a non-empty string',
        describeValue(options.resourceName),
      );
    }
    document['resource_name'] = options.resourceName;
  }
  if (options.resourceDocumentation !== undefined) {
    document['resource_documentation'] = publicUrlOption(
      'Plantstore',
      'resourceMetadata.resourceDocumentation',
      options.resourceDocumentation,
    );
  }
  const body = JSON.stringify(document);
  const ok: PlantAnswer = { status: 200, headers: HEADERS, body };
  const okClosing: PlantAnswer = {
    status: 200,
    headers: { ...HEADERS, connection: 'close' },
    body,
  };
  return {
    paths,
    url: `${origin}${suffixed}`,
    document: Object.freeze(document),
    serves: (path) => paths.includes(path),
    answer: (method, headers) => {
      const unread = headers !== undefined && declaresBody(headerReader(headers));
      if (method === 'GET' || method === 'HEAD') return unread ? okClosing : ok;
      return errorAnswer(new MethodNotAllowedError('GET, HEAD'), undefined, unread);
    },
  };
}

function sameResource(audience: string, resource: string): boolean {
  try {
    return publicUrlOption('Plantstore', 'audience', audience) === resource;
  } catch {
    return false;
  }
}
