import { config } from 'zod/v4/core';

/**
 * zod 4 compiles object schemas with `new Function` when it may, and finds out by trying
 * `new Function("")` once, as the first schema is built. Under our Content-Security-Policy
 * (script-src 'self', no 'unsafe-eval') that try is a CSP violation, reported in the console of
 * every page, although zod catches it. Jitless mode skips the probe and the compiler (parsing
 * stays correct, a little slower, which the browser never notices). It must be set before any
 * schema is built, so each web entry imports this module first.
 */
config({ jitless: true });
