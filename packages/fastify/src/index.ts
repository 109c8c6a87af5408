export { plantPlugin } from './plant-plugin';
export type { PlantPlugin, PlantPluginOptions } from './plant-plugin';
export { protectedResourceMetadata } from './protected-resource-metadata';
export { guard } from './guard';
export type { GuardHook } from './guard';
export type { ProtectedResourceMetadataPlugin } from './protected-resource-metadata';
export type { PlantRequestState } from './request-state';
