// Ours on Deno: the fetch entry (shared/fetch-plant.mjs).
import './shared/fetch-plant.mjs';
