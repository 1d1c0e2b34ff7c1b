// docs/configuration.md is written from the env classes by scripts/config-docs.js; it must be
// what the script writes today, so the reference never drifts from what the apps validate.
import { readText } from './repo';

// The script is plain JavaScript (it runs without a build); its export is typed here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renderConfigurationDoc, OUTPUT } = require('../../scripts/config-docs.js') as { renderConfigurationDoc: () => string; OUTPUT: string };

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` writes from the env classes (run it after changing one)', () => {
    expect(readText(OUTPUT)).toBe(renderConfigurationDoc());
  });

  it('documents every variable the gateway validates, with a default and a meaning', () => {
    const doc = readText(OUTPUT);
    for (const name of ['PORT', 'KAFKA_BROKERS', 'DATABASE_URL', 'MEDIA_STORAGE', 'LOG_LEVEL', 'HEAP_PRETENURING']) {
      expect(doc).toMatch(new RegExp(`^\\| \`${name}\` \\| [^|]+ \\| [^|]*\\| \\S`, 'm'));
    }
  });
});
