import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

// Each public entry's names, locked: a name added, moved or removed is a deliberate change to this
// list, reviewed as such (after 0.1.0 a removal is a major). Runtime names are read from the loaded
// module, type names from the TypeScript compiler; packages/core/README.md ("Entries") says why each
// name lives where it does.

interface Entry {
  readonly entry: string;
  readonly file: string;
  readonly load: () => Promise<Record<string, unknown>>;
  readonly values: readonly string[];
  readonly types: readonly string[];
}

const ROOT: Entry = {
  entry: '@plantstore/core',
  file: '../index.ts',
  load: () => import('../index'),
  values: [
    'BearerError',
    'CREATE_TRACING_CHANNEL',
    'ClaimMismatchError',
    'ConflictError',
    'INT64_MAX',
    'INT64_MIN',
    'InsufficientScopeError',
    'InternalServerError',
    'InvalidBodyError',
    'InvalidDpopProofError',
    'InvalidTokenError',
    'MalformedAuthorizationError',
    'MethodNotAllowedError',
    'MissingTokenError',
    'NotFoundError',
    'PayloadTooLargeError',
    'PlantServiceError',
    'RequestTimeoutError',
    'ServiceUnavailableError',
    'UnsupportedMediaTypeError',
    'UseDpopNonceError',
    'cancellation',
    'certificateBinding',
    'certificateThumbprint',
    'createNodeHandler',
    'createPlantService',
    'dpopBinding',
    'guard',
    'isPlantServiceError',
    'isSameOwner',
    'jwtBearer',
    'memoryReplayStore',
    'memoryStore',
    'tokenIntrospection',
  ],
  types: [
    'AcceptedCredentials',
    'AccessTokenProfile',
    'AnyPlantServiceError',
    'AuthRequest',
    'AuthScheme',
    'Authenticator',
    'BearerChallenge',
    'Cancellation',
    'CertificateBinding',
    'ChallengeContext',
    'ClaimRequirement',
    'ClaimValue',
    'ClientCertificate',
    'CreateFailureMessage',
    'CreateStartMessage',
    'CreateSuccessMessage',
    'CreateTraceMessage',
    'DpopBinding',
    'DpopNonceOptions',
    'DpopOptions',
    'EventsOptions',
    'FetchGuard',
    'FetchGuardResult',
    'FieldIssue',
    'GuardOptions',
    'Hook',
    'HookContext',
    'InsertResult',
    'IntrospectionClientAuthentication',
    'JwsAlgorithm',
    'JwtBearer',
    'JwtBearerAudienceCheck',
    'JwtBearerIssuerFields',
    'JwtBearerIssuerOptions',
    'JwtBearerJwksOptions',
    'JwtBearerOptionFields',
    'JwtBearerOptions',
    'LoggedCause',
    'LoggedFailure',
    'MemoryOutbox',
    'MemoryReplayStoreOptions',
    'MemoryStore',
    'MtlsOptions',
    'NewPlant',
    'NodeHandler',
    'OwnerCheck',
    'Plant',
    'PlantLogger',
    'PlantRecord',
    'PlantService',
    'PlantServiceErrorCode',
    'PlantServiceErrorOptions',
    'PlantServiceOptions',
    'PlantStore',
    'Principal',
    'ReplayContext',
    'ReplayStore',
    'ResourceMetadataEndpoint',
    'ResourceMetadataOptions',
    'StoreContext',
    'StoredPlant',
    'TenantOption',
    'TokenIntrospection',
    'TokenIntrospectionCacheOptions',
    'TokenIntrospectionOptions',
  ],
};

// The root as Workers and Edge runtimes load it: the same names, one of them its own.
const WEB: Entry = {
  ...ROOT,
  entry: '@plantstore/core (workerd, edge-light, worker)',
  file: './web.ts',
  load: () => import('./web'),
};

const ENTRIES: readonly Entry[] = [
  ROOT,
  WEB,
  {
    entry: '@plantstore/core/adapter',
    file: './adapter.ts',
    load: () => import('./adapter'),
    values: [
      'LINGER_BYTES',
      'LINGER_MS',
      'checkKnownOptions',
      'describeValue',
      'isPlantService',
      'lingerOnClose',
      'nodeHeaderReader',
      'nonNegativeNumber',
      'optionError',
      'optionalBoolean',
      'optionalFunction',
      'requestGuard',
      'resourceMetadataRoute',
      'wholeNumber',
      'writeAnswer',
    ],
    types: [
      'AuthStepRequest',
      'BodySource',
      'Factory',
      'GuardResult',
      'HeaderReader',
      'HeaderSource',
      'HeaderValue',
      'PlantAnswer',
      'PlantRequest',
      'RequestGuard',
      'ResourceMetadataRoute',
      'WholeBody',
      'WholeNumberRange',
    ],
  },
  {
    entry: '@plantstore/core/openapi',
    file: './openapi.ts',
    load: () => import('./openapi'),
    values: [
      'ErrorSchema',
      'NewPlantSchema',
      'PlantSchema',
      'addPlantRoute',
      'createOpenApiDocument',
      'openApiDocument',
      'plantOperation',
    ],
    types: [
      'AddPlantRouteOptions',
      'OpenApiDocument',
      'OpenApiHostDocument',
      'OpenApiOptions',
      'PlantOperation',
    ],
  },
  {
    entry: '@plantstore/core/providers',
    file: './providers.ts',
    load: () => import('./providers'),
    values: [
      'auth0',
      'authentik',
      'clerk',
      'cognito',
      'entraId',
      'entraIdMultiTenant',
      'firebase',
      'keycloak',
      'okta',
      'oryHydra',
      'supabase',
      'zitadel',
    ],
    types: [
      'Auth0Preset',
      'Auth0PresetOptions',
      'AuthentikPreset',
      'AuthentikPresetOptions',
      'ClerkPreset',
      'ClerkPresetOptions',
      'CognitoPreset',
      'CognitoPresetOptions',
      'EntraIdAppOptions',
      'EntraIdMultiTenantPresetOptions',
      'EntraIdPreset',
      'EntraIdPresetOptions',
      'EntraIdTokenVersion',
      'FirebasePreset',
      'FirebasePresetOptions',
      'KeycloakPreset',
      'KeycloakPresetOptions',
      'OktaPreset',
      'OktaPresetOptions',
      'OryHydraPreset',
      'OryHydraPresetOptions',
      'SupabasePreset',
      'SupabasePresetOptions',
      'SupabaseProject',
      'SupabaseRotationPreset',
      'ZitadelPreset',
      'ZitadelPresetOptions',
    ],
  },
  {
    entry: '@plantstore/core/events',
    file: './events.ts',
    load: () => import('./events'),
    values: ['DeliveryError', 'EVENT_CHANNELS', 'PLANT_CREATED', 'eventRelay', 'webhookSink'],
    types: [
      'EventDelivered',
      'EventFailed',
      'EventRelay',
      'EventRelayOptions',
      'EventSink',
      'RelayFailure',
      'RelayRound',
      'RelayTuning',
      'RoundCounts',
      'WebhookSinkOptions',
    ],
  },
  {
    entry: '@plantstore/core/store-kit',
    file: './store-kit.ts',
    load: () => import('./store-kit'),
    values: [
      'STORE_TIMEOUT_MS',
      'TIMED_OUT',
      'NETWORK_CODES',
      'PRUNE_OPTION_NAMES',
      'abortError',
      'backgroundPrune',
      'boundedWait',
      'findCause',
      'gatedRemember',
      'insertOrRead',
      'isNetworkCode',
      'isNetworkFailure',
      'isTransientFailure',
      'readyTimeoutOption',
      'sinkGate',
      'storeGate',
      'storedPlant',
    ],
    types: [
      'BackgroundPrune',
      'BackgroundPruneOptions',
      'DeadEvent',
      'DeliveryFailure',
      'EventOutbox',
      'InsertOrReadSteps',
      'OutboxEvent',
      'PendingEvent',
      'PruneOptions',
      'RememberStep',
      'SinkGate',
      'StoreGate',
      'StoreGateOptions',
      'StoreLifecycle',
      'StoreTimeoutOptions',
      'StoredFields',
    ],
  },
  {
    entry: '@plantstore/core/testing',
    file: '../testing/index.ts',
    load: () => import('../testing/index'),
    values: [
      'createDpopClient',
      'createProviderIssuer',
      'createTokenIssuer',
      'describeOutboxConformance',
      'describeReplayStoreConformance',
      'describeStoreConformance',
      'serviceUrl',
      'silentStoreOn',
      'storeRecord',
    ],
    types: [
      'DpopClient',
      'DpopClientAlgorithm',
      'DpopProofOptions',
      'DpopProofTarget',
      'OutageMode',
      'ProviderIssuer',
      'ProviderName',
      'ProviderPresetOptions',
      'ProviderSignOptions',
      'ReplayStoreConformanceOptions',
      'SignOptions',
      'SilentServer',
      'SilentStoreOptions',
      'StoreConformanceOptions',
      'TestRegistrar',
      'TokenIssuer',
      'TokenIssuerAlgorithm',
      'TokenIssuerOptions',
    ],
  },
];

const fileOf = (entry: Entry): string => fileURLToPath(new URL(entry.file, import.meta.url));

// One program for every entry: the compiler reads the sources once.
let exportsOf: (entry: Entry) => string[];

beforeAll(() => {
  const program = ts.createProgram(ENTRIES.map(fileOf), {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
    skipLibCheck: true,
    // Only the entries' export lists are read: no library or ambient type is needed for them.
    noLib: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  exportsOf = (entry) => {
    const source = program.getSourceFile(fileOf(entry));
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`the compiler did not read ${entry.file}`);
    return checker.getExportsOfModule(module).map((symbol) => symbol.name);
  };
}, 120_000);

const sorted = (names: Iterable<string>): string[] => [...names].sort();

describe.each(ENTRIES)('$entry', (entry) => {
  it('exports exactly its locked runtime names', async () => {
    expect(sorted(Object.keys(await entry.load()))).toEqual(sorted(entry.values));
  });

  it('exports exactly its locked type names', async () => {
    const runtime = new Set(Object.keys(await entry.load()));
    const types = exportsOf(entry).filter((name) => !runtime.has(name));
    expect(sorted(types)).toEqual(sorted(entry.types));
  });
});

it('gives every public name one entry (the Workers build of the root is the root)', () => {
  const all = ENTRIES.filter((entry) => entry.file !== WEB.file).flatMap((entry) => [
    ...entry.values,
    ...entry.types,
  ]);
  expect(all.filter((name, index) => all.indexOf(name) !== index)).toEqual([]);
});
