export { plantRouter } from './plant-router';
export type { PlantRouter } from './plant-router';
export type { PlantLocals } from './locals';
