import { metrics, trace } from '@opentelemetry/api';
import {
  ConsoleMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createPlantService, jwtBearer, memoryStore } from '@plantstore/core';
import { createTokenIssuer } from '@plantstore/core/testing';
import { createApp } from './app';
import { installPlantstoreTelemetry } from './telemetry';

// Spans and metrics are printed to the console: swap in the exporter of your backend (OTLP, …).
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())],
});
const meterProvider = new MeterProvider({
  readers: [
    new PeriodicExportingMetricReader({
      exporter: new ConsoleMetricExporter(),
      exportIntervalMillis: 10_000,
    }),
  ],
});
trace.setGlobalTracerProvider(tracerProvider);
metrics.setGlobalMeterProvider(meterProvider);
const uninstall = installPlantstoreTelemetry();

// Development only: a local identity provider on 127.0.0.1, so the route can be tried with curl.
const idp = await createTokenIssuer({ audience: 'https://plants.example.com', algorithm: 'ES256' });
const plants = createPlantService({
  store: memoryStore(),
  auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
});

const port = Number(process.env.PORT ?? 3000);
const server = createApp(plants).listen(port, '127.0.0.1', () => {
  void idp.sign({ sub: 'developer' }, { expiresIn: '1 h' }).then((token) => {
    console.log(`Plantstore with OpenTelemetry: http://127.0.0.1:${port}/api/plants`);
    console.log(`curl -i -X POST http://127.0.0.1:${port}/api/plants \\
  -H 'authorization: Bearer ${token}' \\
  -H 'content-type: application/json' \\
  -d '{"id": 1, "name": "Monstera"}'`);
  });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    uninstall();
    void Promise.all([
      plants.close(),
      idp.close(),
      tracerProvider.shutdown(),
      meterProvider.shutdown(),
    ]);
  });
}
