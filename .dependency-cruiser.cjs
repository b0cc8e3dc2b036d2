/**
 * Runtime import cycles in server/ (type-only imports do not run, so they do not count).
 * Run by `npm run lint`. The layer order and module surfaces are checked by ESLint
 * (eslint-plugin-boundaries, eslint.config.js).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A runtime import cycle: modules load in an order that depends on who is imported first.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(migrations|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
