import type { Authenticator } from '../auth/authenticator';

/**
 * The JSON Schema (2020-12, as OpenAPI 3.1 uses it) subset this document needs.
 *
 * @example
 * ```ts
 * const id: JsonSchema = { type: 'integer', format: 'int64' };
 * ```
 */
export interface JsonSchema {
  readonly $ref?: string;
  readonly type?: 'object' | 'string' | 'integer';
  readonly format?: 'int32' | 'int64';
  readonly description?: string;
  readonly pattern?: string;
  readonly const?: string;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly allOf?: readonly JsonSchema[];
  /** Sample values a viewer (Swagger UI) shows; OpenAPI 3.0 takes the first as `example`. */
  readonly examples?: readonly JsonExample[];
}

/**
 * A sample value in a schema's `examples`: a plant or an Error body, as JSON.
 *
 * @example
 * ```ts
 * const fern: JsonExample = { id: 10, name: 'Fern', tag: 'indoor' };
 * ```
 */
export type JsonExample = Readonly<Record<string, string | number>>;

/**
 * An OpenAPI Reference Object.
 *
 * @example
 * ```ts
 * const ref: OpenApiReference = { $ref: '#/components/headers/CacheControl' };
 * ```
 */
export interface OpenApiReference {
  readonly $ref: string;
}

/**
 * An OpenAPI Header Object.
 *
 * @example
 * ```ts
 * const header: OpenApiHeader = { description: 'Seconds to wait', schema: { type: 'integer' } };
 * ```
 */
export interface OpenApiHeader {
  readonly description: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

/**
 * An OpenAPI Example Object holding an Error body.
 *
 * @example
 * ```ts
 * const example: OpenApiExample = { summary: 'Conflict', value: { error: 409, message: '…' } };
 * ```
 */
export interface OpenApiExample {
  readonly summary: string;
  readonly value: { readonly error: number; readonly message: string };
}

/**
 * An OpenAPI Media Type Object.
 *
 * @example
 * ```ts
 * const json: OpenApiMediaType = { schema: { $ref: '#/components/schemas/Plant' } };
 * ```
 */
export interface OpenApiMediaType {
  readonly schema: JsonSchema;
  readonly examples?: Readonly<Record<string, OpenApiExample>>;
}

/**
 * An OpenAPI Response Object.
 *
 * @example
 * ```ts
 * const gone: OpenApiResponse = { description: 'Not found' };
 * ```
 */
export interface OpenApiResponse {
  readonly description: string;
  readonly headers?: Readonly<Record<string, OpenApiHeader | OpenApiReference>>;
  readonly content?: Readonly<Record<string, OpenApiMediaType>>;
}

/**
 * An OpenAPI Operation Object.
 *
 * @example
 * ```ts
 * const op: OpenApiOperation = { description: 'x', responses: { '200': { description: 'ok' } } };
 * ```
 */
export interface OpenApiOperation {
  readonly operationId?: string;
  /** The tag viewers group the operation under: `plants`, or the `tag` option. */
  readonly tags?: readonly string[];
  readonly summary?: string;
  readonly description: string;
  readonly requestBody?: {
    readonly description: string;
    readonly required: boolean;
    readonly content: Readonly<Record<string, OpenApiMediaType>>;
  };
  readonly responses: Readonly<Record<string, OpenApiResponse>>;
}

/**
 * An OpenAPI Security Scheme Object of type `http`.
 *
 * @example
 * ```ts
 * const bearer: OpenApiSecurityScheme = { type: 'http', scheme: 'bearer' };
 * ```
 */
export interface OpenApiSecurityScheme {
  readonly type: 'http';
  readonly scheme: string;
  readonly bearerFormat?: string;
  readonly description?: string;
}

/**
 * The OpenAPI 3.1.0 document of the route, as {@link createOpenApiDocument} builds it.
 *
 * @example
 * ```ts
 * const doc: OpenApiDocument = createOpenApiDocument();
 * ```
 */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: {
    readonly title: string;
    readonly description?: string;
    readonly license: { readonly name: string };
    readonly version: string;
  };
  readonly servers: readonly {
    readonly url: string;
    readonly variables?: Readonly<Record<string, { readonly default: string }>>;
  }[];
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  readonly paths: Readonly<Record<string, { readonly post: OpenApiOperation }>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly headers: Readonly<Record<string, OpenApiHeader>>;
    readonly securitySchemes: Readonly<Record<string, OpenApiSecurityScheme>>;
  };
}

/**
 * Where the document says the route lives.
 *
 * @example
 * ```ts
 * const options: OpenApiOptions = { serverUrl: 'https://api.example.com', basePath: '/v1' };
 * ```
 */
export interface OpenApiOptions {
  /** Default of the `base_url` server variable; `http://localhost:3000` unless set. */
  readonly serverUrl?: string;
  /** Where the host mounts the middleware (`/v1` gives `/v1/plants`); empty by default. */
  readonly basePath?: string;
  /** The tag the operation is listed under, as Swagger UI groups operations; `plants` by default. */
  readonly tag?: string;
}

/**
 * The least a host's OpenAPI 3.0 or 3.1 document has, so that any document type fits: Nest's
 * `OpenAPIObject`, openapi-types' `OpenAPIV3.Document`, a parsed JSON file. What else it holds
 * is checked when it is merged.
 *
 * @example
 * ```ts
 * const host: OpenApiHostDocument = { openapi: '3.0.3', info: { title: 'Garden', version: '1' }, paths: {} };
 * ```
 */
export interface OpenApiHostDocument {
  readonly openapi: string;
  readonly paths?: object | undefined;
  readonly components?: object | undefined;
}

/**
 * Options of {@link addPlantRoute}.
 *
 * @example
 * ```ts
 * const options: AddPlantRouteOptions = { basePath: '/api', requiredScopes: ['plants:write'] };
 * ```
 */
export interface AddPlantRouteOptions {
  /** Where the host mounts the route, relative to the document's servers (`/api` gives `/api/plants`); `''` by default. */
  readonly basePath?: string | undefined;
  /**
   * Put before the name of each component the route adds (`Plantstore` gives `PlantstorePlant`,
   * `PlantstoreError`, `PlantstoreCacheControl`, `PlantstoreBearerAuth`). Without it the names are
   * `Plant`, `NewPlant`, `Error`, `CacheControl`, `Vary`, `RetryAfter` and `bearerAuth`, and a host
   * component of one of these names that is not exactly the route's is refused with a `TypeError`.
   */
  readonly componentPrefix?: string | undefined;
  /** The tag the operation is listed under, as Swagger UI groups operations; `plants` by default. */
  readonly tag?: string | undefined;
  /** The operation's `operationId`, unique in the document; `createPlant` by default. */
  readonly operationId?: string | undefined;
  /** The scopes a token must grant, as the route's `jwtBearer({ requiredScopes })`; or give `auth`. */
  readonly requiredScopes?: readonly string[] | undefined;
  /** The route's authenticator, whose `accepts.scopes` are the scopes written; or give `requiredScopes`. */
  readonly auth?: Authenticator | undefined;
}
