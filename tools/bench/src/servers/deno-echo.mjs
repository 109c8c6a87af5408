// Echo on Deno: request.json() and the plant answered back (shared/fetch-echo.mjs).
import './shared/fetch-echo.mjs';
