// One jest run for the whole monorepo: unit tests sit beside the code (*.test.ts),
// integration and system tests live in <workspace>/tests (*.int.test.ts, *.system.test.ts).
// npm test sets --experimental-vm-modules: PGlite (the embedded database) loads its WASM through a
// dynamic import, which jest's VM only allows with that flag.
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }];
const moduleNameMapper = {
  '^@mockyard/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
  // Prisma's generated client imports its siblings as ./x.js
  '^(\\.{1,2}/.*)\\.js$': '$1',
};
const common = {
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper,
  testEnvironment: 'node',
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/', '<rootDir>/web/.next/'],
};
// The slow fault tests (tests/faults/*.fault.ts: outages, kills, slow clients, the soak) are a project of
// their own, only present when MOCKYARD_FAULTS=1: `npm run test:faults` runs them, `npm test` never does.
const faults = {
  ...common,
  displayName: 'faults',
  testMatch: ['<rootDir>/tests/faults/**/*.fault.ts'],
  globalSetup: '<rootDir>/packages/testkit/src/global-setup.ts',
  globalTeardown: '<rootDir>/packages/testkit/src/global-teardown.ts',
};
module.exports = {
  // A run-wide option: jest ignores testTimeout inside a project (there it left every test at 5 s, which
  // tests that start processes overran on a loaded machine). The fault tests set longer ones themselves.
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{packages,services}/*/src/**/*.test.ts', '<rootDir>/web/lib/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{packages,services,web}/*/tests/**/*.int.test.ts', '<rootDir>/web/tests/**/*.int.test.ts', '<rootDir>/tests/**/*.test.ts'],
      globalSetup: '<rootDir>/packages/testkit/src/global-setup.ts',
      globalTeardown: '<rootDir>/packages/testkit/src/global-teardown.ts',
    },
    ...(process.env.MOCKYARD_FAULTS === '1' ? [faults] : []),
  ],
};
