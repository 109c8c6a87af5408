import { lambdaHandler } from '@plantstore/aws-lambda';
import { bridgedService } from '@plantstore/http-suite/bridged';
import { originOf, type PayloadFormat, serveLambdaLocally } from './local-gateway';

// The contract suite's host: the route as a Lambda function's whole handler, invoked in this
// process by the local stand-in for API Gateway, in the payload format named on the command line.
const format = (process.argv[2] ?? '2.0') as PayloadFormat;
const { service, settled } = bridgedService(process.env, '/api');
const handler = lambdaHandler(async (request) => {
  const response = await service.fetch(request);
  await settled(); // the suite reads hook calls as soon as it has the answer
  return response;
});
const server = await serveLambdaLocally(handler, format, 0);
console.log(
  `contract host, Lambda (payload ${format}) behind a local gateway: ${originOf(server)}/api`,
);
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
