/** How the stack under test is laid out (ARCHITECTURE.md, "Two run modes"). */
export type StackMode = 'all-in-one' | 'distributed';

/** The mode the e2e suite runs against: `E2E_MODE`, default all-in-one. */
export function e2eMode(): StackMode {
  const mode = process.env.E2E_MODE || 'all-in-one';
  if (mode !== 'all-in-one' && mode !== 'distributed') {
    throw new Error(`E2E_MODE must be all-in-one or distributed, got '${mode}'`);
  }
  return mode;
}
