// Module resolution hook: `electron` resolves to the stand-in beside this file; everything else as usual.
const FAKE = new URL('./electron.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: FAKE, shortCircuit: true };
  return next(specifier, context);
}
