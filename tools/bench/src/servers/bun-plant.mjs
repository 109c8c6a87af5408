// Ours on Bun: the fetch entry (shared/fetch-plant.mjs).
import './shared/fetch-plant.mjs';
