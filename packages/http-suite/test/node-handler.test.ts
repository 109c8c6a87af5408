import { createServer } from 'node:http';
import { createNodeHandler, createPlantService } from '@plantstore/core';
import { describeHttpContract, listen } from '../src/index';

describeHttpContract('createNodeHandler on node:http', {
  passesOn: true,
  async start(options) {
    const handler = createNodeHandler(createPlantService({ ...options, basePath: '/v1' }));
    const server = createServer((req, res) =>
      handler(req, res, () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`host:${req.method} ${req.url}`);
      }),
    );
    return listen(server, '/v1');
  },
});

describeHttpContract('createNodeHandler answering on its own', {
  passesOn: false,
  async start(options) {
    return listen(createServer(createNodeHandler(createPlantService(options))));
  },
});
