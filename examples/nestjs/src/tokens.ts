/**
 * The injection token of the app's `PlantService`. Every consumer names it in `@Inject(PLANT_SERVICE)`,
 * so nothing depends on decorator metadata, which esbuild (tsx) does not emit.
 */
export const PLANT_SERVICE = Symbol('PlantService');
