/**
 * How deep a JSON value nests (a scalar is 0, `[]` and `{}` are 1), counted without
 * recursion so that no depth can overflow the stack; stops counting past `stopAfter`.
 */
export function jsonDepth(value: unknown, stopAfter = Infinity): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > stopAfter) return deepest;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, level]);
    }
  }
  return deepest;
}
