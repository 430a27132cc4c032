// A field named `__proto__` in an imported entry. Assigned like any other field it is not stored: it
// replaces the item object's prototype (a string is ignored; an object makes every field it holds seem
// set on the item), and was lost without a word. Kept as data, the item could never be edited, since
// the request bounds refuse the key (shared/ipc/bounds.ts). So the parsers leave it out and say so,
// naming the entry and where the field was.

export const PROTOTYPE_KEY = '__proto__';

const own = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/**
 * Removes every own `__proto__` key from `value` and the objects and arrays inside it (JSON.parse makes
 * such keys own data properties), by a loop, not recursion; returns where each was, as JSON paths
 * (`__proto__`, `custom.__proto__`, `author[0].__proto__`), in document order.
 */
export function dropPrototypeKeys(value: unknown): string[] {
  const found: string[] = [];
  const stack: [node: unknown, path: string][] = [[value, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const children: [unknown, string][] = [];
    if (Array.isArray(node)) node.forEach((v, i) => children.push([v, `${path}[${i}]`]));
    else {
      if (own(node, PROTOTYPE_KEY)) {
        found.push(path === '' ? PROTOTYPE_KEY : `${path}.${PROTOTYPE_KEY}`);
        delete (node as Record<string, unknown>)[PROTOTYPE_KEY];
      }
      for (const [k, v] of Object.entries(node)) children.push([v, path === '' ? k : `${path}.${k}`]);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return found;
}

/** The report line's reason for a `__proto__` field left out of `entry` (`at`: where it was). */
export function prototypeKeyReason(entry: string, at: string = PROTOTYPE_KEY): string {
  return `${entry}: the field "${at}" was left out; Citewise cannot store a field named "${PROTOTYPE_KEY}".`;
}
