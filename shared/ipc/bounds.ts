// Bounds on what a request's input may be, checked before its schema or handler sees it. A schema
// walks its input recursively, and so does every serialisation of a result that echoes it: 5,000
// nested arrays overflowed the stack of the host server. A `__proto__` key is refused too, so no code
// that copies input into an object can be made to change a prototype. `constructor` and `prototype`
// are data (a CSL or BibTeX field may be called so, and such an item must stay editable): no code
// sets values by a path taken from input, the only way those two names could reach a prototype.
import { grouped } from '../model/numbers';

/** Deeper than any request of the contract nests (a CSL record with its creators is about 5). */
export const MAX_INPUT_DEPTH = 64;
/** Values in one input (objects, arrays, strings, numbers…): far above the largest import a window sends. */
export const MAX_INPUT_NODES = 2_000_000;
const PROTOTYPE_KEY = '__proto__';

/** Why `input` is out of bounds, or null when it is within them. Iterative: never deep in the stack itself. */
export function inputBoundsProblem(
  input: unknown,
  limits = { depth: MAX_INPUT_DEPTH, nodes: MAX_INPUT_NODES },
): string | null {
  const stack: [unknown, number][] = [[input, 0]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++nodes > limits.nodes) return `the input has more than ${grouped(limits.nodes)} values`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= limits.depth) return `the input nests deeper than ${limits.depth} levels`;
    if (Array.isArray(value)) {
      for (const v of value as unknown[]) stack.push([v, depth + 1]);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key === PROTOTYPE_KEY) return `the input has a key "${key}", which is not allowed`;
      stack.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return null;
}
