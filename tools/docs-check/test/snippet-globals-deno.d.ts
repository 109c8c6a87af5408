// Globals of the blocks fenced as ```ts deno: Deno's own (`Deno.serve`, `Deno.env`).
/// <reference types="deno" />
