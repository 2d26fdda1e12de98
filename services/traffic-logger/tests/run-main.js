// Runs services/traffic-logger/src/main.ts as a real process without a build, for tests that send it
// signals: TypeScript compiled on require with @swc/core (as jest does), @mockyard/* mapped to sources.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '../../..');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const pkg = /^@mockyard\/([a-z-]+)$/.exec(request);
  if (pkg) return path.join(root, 'packages', pkg[1], 'src', 'index.ts');
  if (/^\.{1,2}\/.*\.js$/.test(request) && parent?.filename?.endsWith('.ts')) {
    const ts = path.resolve(path.dirname(parent.filename), request.replace(/\.js$/, '.ts'));
    if (fs.existsSync(ts)) return ts;
  }
  try {
    return resolve.call(this, request, parent, ...rest);
  } catch (err) {
    const ts = parent?.filename ? path.resolve(path.dirname(parent.filename), `${request}.ts`) : '';
    if (ts && fs.existsSync(ts)) return ts;
    throw err;
  }
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
require(path.join(root, 'services/traffic-logger/src/main.ts'));
