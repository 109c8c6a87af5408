export { plantRouter } from './plant-router';
export type { PlantRouter } from './plant-router';
export { protectedResourceMetadata } from './protected-resource-metadata';
export { guard } from './guard';
export type { KeepRawBody } from './keep-raw-body';
export type { PlantLocals } from './locals';
