// Unit tests of the dashboard's pure helpers (web/lib/**/*.test.ts), runnable alone:
//   npx jest -c web/jest.config.js
// The root jest.config.js should carry the same glob in its `unit` project (proposed to the lead).
const path = require('node:path');
const root = path.join(__dirname, '..');
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }];
module.exports = {
  rootDir: root,
  displayName: 'web-unit',
  testMatch: ['<rootDir>/web/lib/**/*.test.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^@mockyard/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts' },
  testEnvironment: 'node',
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/', '<rootDir>/web/.next/'],
};
