// Node module hook for test/demo.test.ts: resolving `@chainsafe/ssz` fails
// exactly as it does on a machine where the package is not installed
// (ERR_MODULE_NOT_FOUND), so the demo's `--compare` fallback runs for real.
import { register } from 'node:module';

const hook = `export async function resolve(specifier, context, next) {
  if (specifier === '@chainsafe/ssz' || specifier.startsWith('@chainsafe/ssz/')) {
    const e = new Error("Cannot find package '@chainsafe/ssz' imported from " + context.parentURL);
    e.code = 'ERR_MODULE_NOT_FOUND';
    throw e;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
