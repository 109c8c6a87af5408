import { lambdaHandler } from '@plantstore/aws-lambda';
import { createExample } from './example';
import { originOf, type PayloadFormat, serveLambdaLocally } from './local-gateway';

// The function behind a local stand-in for API Gateway, as `sam local start-api` runs it: each HTTP
// request becomes an event (payload 2.0, or 1.0 with PLANTSTORE_PAYLOAD=1.0), invoked in-process.
const example = await createExample(process.env);
const format: PayloadFormat = process.env.PLANTSTORE_PAYLOAD === '1.0' ? '1.0' : '2.0';
const server = await serveLambdaLocally(
  lambdaHandler(example.fetch),
  format,
  Number(process.env.PORT ?? 3000),
);
const url = `${originOf(server)}/api/plants`;
console.log(`Plantstore as a Lambda function (payload ${format}), locally: ${url}`);
if (example.devToken !== undefined) {
  console.log(`curl -i -X POST ${url} \\
  -H 'authorization: Bearer ${example.devToken}' \\
  -H 'content-type: application/json' \\
  -d '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}'`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void example.close();
  });
}
