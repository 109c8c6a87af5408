export { plantPlugin } from './plant-plugin';
export type { PlantPlugin, PlantPluginOptions } from './plant-plugin';
export type { PlantRequestState } from './request-state';
