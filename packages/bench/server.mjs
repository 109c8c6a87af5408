import { createServer } from 'node:http';
import { createNodeHandler, createPlantService, jwtBearer, memoryStore } from '@plantstore/core';
const secret = 'bench-secret-bench-secret-bench-secret-0123';
const service = createPlantService({ store: memoryStore(), auth: jwtBearer({ secret, issuer: 'bench', audience: 'plants' }) });
const server = createServer(createNodeHandler(service)).listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGINT', () => { server.close(); process.exit(0); });
