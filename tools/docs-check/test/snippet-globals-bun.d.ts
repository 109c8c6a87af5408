// Globals of the blocks fenced as ```ts bun: Bun's own (`Bun.serve`, `Bun.version`).
/// <reference types="bun" />
