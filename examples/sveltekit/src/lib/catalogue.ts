/** The app's own catalogue, served by its own `GET /api/plants` beside the plants route's `POST`. */
export const catalogue = [
  { name: 'Monstera', tag: 'aroid' },
  { name: 'Boston fern', tag: 'fern' },
] as const;
