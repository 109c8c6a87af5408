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
}

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
}
