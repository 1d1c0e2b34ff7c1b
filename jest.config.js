// One jest run, two projects: unit tests beside the code (no build needed: sources are
// transformed by swc) and the end-to-end suite, which starts the built apps as processes.
const fs = require('node:fs');
const path = require('node:path');

// `@cinetrace/<name>` resolves to the package's sources, so unit tests need no build.
const moduleNameMapper = {};
for (const dir of ['libs', 'apps']) {
  for (const name of fs.readdirSync(path.join(__dirname, dir))) {
    moduleNameMapper[`^@cinetrace/${name}$`] = `<rootDir>/${dir}/${name}/src`;
  }
}

const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        target: 'es2022',
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      },
      module: { type: 'commonjs' },
    },
  ],
};

// Nest, class-validator and TypeORM read decorator metadata through this polyfill.
const common = { rootDir: __dirname, transform, moduleNameMapper, testEnvironment: 'node', setupFiles: ['reflect-metadata'] };

module.exports = {
  // The e2e files that share a stack run one after another (a global option: jest has one order for every project).
  testSequencer: '<rootDir>/test/jest/e2e-sequencer.js',
  projects: [
    // The deployment checks (test/deploy-checks) and the specs over every app (test/apps) need no
    // build either: they run with the unit tests.
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs}/*/src/**/*.spec.ts', '<rootDir>/test/apps/*.spec.ts', '<rootDir>/test/deploy-checks/**/*.spec.ts'],
      // The time limit of a test: jest ignores a project's `testTimeout` (it reads the global one only).
      setupFilesAfterEnv: ['<rootDir>/test/jest/unit-timeout.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      // Suites about what only the distributed mode has (a Kafka topic others can write to).
      testPathIgnorePatterns: process.env.E2E_MODE === 'distributed' ? [] : ['\\.distributed\\.e2e-spec\\.ts$'],
      setupFilesAfterEnv: ['<rootDir>/test/jest/e2e-timeout.ts'],
      // The registry through which the files share their stacks (test/e2e/support/stack-hooks.ts).
      globalSetup: '<rootDir>/test/e2e/support/shared-stacks-setup.ts',
      globalTeardown: '<rootDir>/test/e2e/support/shared-stacks-teardown.ts',
      // The OpenTelemetry exporters load http with a dynamic import(), which jest's module
      // sandbox refuses without --experimental-vm-modules; swc makes it a require().
      transform: { ...transform, '/node_modules/@opentelemetry/otlp-exporter-base/.+\\.js$': transform['^.+\\.ts$'] },
      transformIgnorePatterns: ['/node_modules/(?!@opentelemetry/otlp-exporter-base/)'],
    },
  ],
};
