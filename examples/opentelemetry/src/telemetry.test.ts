import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  DataPointType,
  MeterProvider,
  MetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  createPlantService,
  jwtBearer,
  memoryStore,
  type PlantStore,
  ServiceUnavailableError,
} from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { installPlantstoreTelemetry } from './telemetry';

/** A reader the test collects from when it wants, instead of on a timer. */
class CollectingReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

describe('the OpenTelemetry example', () => {
  let idp: TokenIssuer;
  let server: Server;
  let base: string;
  let token: string;
  let storeDown = false;
  let nextId = 1;

  let spans: InMemorySpanExporter;
  let tracerProvider: BasicTracerProvider;
  let reader: CollectingReader;
  let meterProvider: MeterProvider;
  let uninstall: () => void;

  beforeAll(async () => {
    idp = await createTokenIssuer({ algorithm: 'ES256' });
    token = await idp.sign({ sub: 'gardener-4242' });
    const memory = memoryStore();
    // The memory store, with a switch that makes its backend unavailable.
    const store: PlantStore = {
      insert: (plant, context) =>
        storeDown
          ? Promise.reject(new ServiceUnavailableError('store_unavailable', 'Down.'))
          : memory.insert(plant, context),
    };
    const plants = createPlantService({
      store,
      auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
      // The provoked 503s are read from their spans; their log lines would only print.
      logger: false,
    });
    server = createApp(plants).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.close();
    server.closeAllConnections();
    await idp.close();
  });

  beforeEach(() => {
    spans = new InMemorySpanExporter();
    tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    reader = new CollectingReader();
    meterProvider = new MeterProvider({ readers: [reader] });
    uninstall = installPlantstoreTelemetry({ tracerProvider, meterProvider });
  });

  afterEach(async () => {
    uninstall();
    storeDown = false;
    await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
  });

  const create = (body: string, authorized = true) =>
    fetch(`${base}/api/plants`, {
      method: 'POST',
      headers: {
        ...(authorized ? { authorization: `Bearer ${token}` } : {}),
        'content-type': 'application/json',
      },
      body,
    });

  /** Created, replayed, conflict, no token, store down: one request of each, in that order. */
  async function everyKindOfAnswer(): Promise<number[]> {
    const id = nextId;
    nextId += 2;
    const statuses: number[] = [];
    for (const body of [
      `{"id": ${id}, "name": "Fern"}`,
      `{"id": ${id}, "name": "Fern"}`,
      `{"id": ${id}, "name": "Ivy"}`,
    ]) {
      statuses.push((await create(body)).status);
    }
    statuses.push((await create(`{"id": ${id + 1}, "name": "Fern"}`, false)).status);
    storeDown = true;
    statuses.push((await create(`{"id": ${id + 1}, "name": "Fern"}`)).status);
    return statuses;
  }

  async function collected(name: string): Promise<MetricData | undefined> {
    const { resourceMetrics, errors } = await reader.collect();
    expect(errors).toEqual([]);
    return resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((metric) => metric.descriptor.name === name);
  }

  it('makes one plantstore.create span per request, with its status and outcome or reason', async () => {
    expect(await everyKindOfAnswer()).toEqual([200, 200, 409, 401, 503]);
    const finished = spans.getFinishedSpans();
    expect(finished.map((span) => [span.name, span.kind])).toEqual(
      Array.from({ length: 5 }, () => ['plantstore.create', SpanKind.INTERNAL]),
    );
    expect(finished.map((span) => span.attributes)).toEqual([
      {
        'http.request.method': 'POST',
        'http.response.status_code': 200,
        'plantstore.outcome': 'created',
      },
      {
        'http.request.method': 'POST',
        'http.response.status_code': 200,
        'plantstore.outcome': 'replayed',
      },
      {
        'http.request.method': 'POST',
        'http.response.status_code': 409,
        'plantstore.reason': 'id_conflict',
      },
      {
        'http.request.method': 'POST',
        'http.response.status_code': 401,
        'plantstore.reason': 'token_missing',
      },
      {
        'http.request.method': 'POST',
        'http.response.status_code': 503,
        'plantstore.reason': 'store_unavailable',
        'error.type': 'store_unavailable',
      },
    ]);
    expect(finished.map((span) => span.status)).toEqual([
      { code: SpanStatusCode.UNSET },
      { code: SpanStatusCode.UNSET },
      { code: SpanStatusCode.UNSET },
      { code: SpanStatusCode.UNSET },
      { code: SpanStatusCode.ERROR, message: 'store_unavailable' },
    ]);
    const texts = finished.map((span) => JSON.stringify({ ...span.attributes, ...span.status }));
    for (const text of texts) expect(text).not.toMatch(/gardener-4242|Fern|Ivy/);
  });

  it('counts requests by status and outcome or reason, and records the store latency in seconds', async () => {
    await everyKindOfAnswer();
    const requests = await collected('plantstore.requests');
    expect(requests?.descriptor).toMatchObject({ unit: '{request}' });
    expect(requests?.dataPointType).toBe(DataPointType.SUM);
    const counted = requests?.dataPoints.map(({ attributes, value }) => ({ attributes, value }));
    const post = { 'http.request.method': 'POST' };
    expect(counted).toEqual([
      {
        attributes: { ...post, 'http.response.status_code': 200, 'plantstore.outcome': 'created' },
        value: 1,
      },
      {
        attributes: { ...post, 'http.response.status_code': 200, 'plantstore.outcome': 'replayed' },
        value: 1,
      },
      {
        attributes: {
          ...post,
          'http.response.status_code': 409,
          'plantstore.reason': 'id_conflict',
        },
        value: 1,
      },
      {
        attributes: {
          ...post,
          'http.response.status_code': 401,
          'plantstore.reason': 'token_missing',
        },
        value: 1,
      },
      {
        attributes: {
          ...post,
          'http.response.status_code': 503,
          'plantstore.reason': 'store_unavailable',
          'error.type': 'store_unavailable',
        },
        value: 1,
      },
    ]);

    const latency = await collected('plantstore.store.duration');
    expect(latency?.descriptor).toMatchObject({ unit: 's' });
    expect(latency?.dataPointType).toBe(DataPointType.HISTOGRAM);
    if (latency?.dataPointType !== DataPointType.HISTOGRAM) return;
    // The 401 never reached the store: four requests did.
    expect(latency.dataPoints.map((point) => [point.attributes, point.value.count])).toEqual([
      [{ 'http.response.status_code': 200, 'plantstore.outcome': 'created' }, 1],
      [{ 'http.response.status_code': 200, 'plantstore.outcome': 'replayed' }, 1],
      [{ 'http.response.status_code': 409, 'plantstore.reason': 'id_conflict' }, 1],
      [
        {
          'http.response.status_code': 503,
          'plantstore.reason': 'store_unavailable',
          'error.type': 'store_unavailable',
        },
        1,
      ],
    ]);
    for (const point of latency.dataPoints) {
      expect(point.value.sum).toBeGreaterThanOrEqual(0);
      expect(point.value.sum).toBeLessThan(1);
      expect(point.value.buckets.boundaries[0]).toBe(0.0005);
    }
  });

  it('records nothing once uninstalled, and the route answers as before', async () => {
    uninstall();
    const response = await create(`{"id": ${nextId++}, "name": "Quiet"}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"name":"Quiet"}');
    expect(spans.getFinishedSpans()).toEqual([]);
    expect(await collected('plantstore.requests')).toBeUndefined();
  });
});
