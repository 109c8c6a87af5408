export { plantRoutes } from './plant-routes';
export type { PlantMiddleware, PlantRoutes, PlantRoutesOptions } from './plant-routes';
export { protectedResourceMetadata } from './protected-resource-metadata';
export { guard } from './guard';
export type { GuardMiddleware } from './guard';
export type { PlantState } from './state';
