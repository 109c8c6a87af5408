import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { createPlantService } from '@plantstore/core';
import { describeHttpContract, listen } from '../src/index';

// The Web-standard entry, served from a real node:http server through the plainest Request bridge.
describeHttpContract('fetch entry on node:http', {
  passesOn: false,
  async start(options) {
    const service = createPlantService({ ...options, basePath: '/api' });
    const server = createServer((req, res) => {
      const headers = new Headers();
      for (let index = 0; index < req.rawHeaders.length; index += 2) {
        headers.append(req.rawHeaders[index] as string, req.rawHeaders[index + 1] as string);
      }
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
        duplex: 'half',
      });
      void service.fetch(request).then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(await response.text());
      });
    });
    return listen(server, '/api');
  },
});
