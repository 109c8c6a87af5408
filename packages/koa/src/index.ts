export { plantRoutes } from './plant-routes';
export type { PlantMiddleware, PlantRoutes, PlantRoutesOptions } from './plant-routes';
export type { PlantState } from './state';
