import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';

/** A string that starts with /api (esquery's regex cannot hold a slash, hence \x2F). */
const API_PATH = '/^\\x2Fapi(\\x2F|$)/';
/** Calls whose path argument the typed client checks against the OpenAPI paths. */
const TYPED_CALL = ":matches(CallExpression[callee.object.name='client'][callee.property.name=/^(GET|POST|PUT|PATCH|DELETE)$/], CallExpression[callee.name=/^(uploadFile|apiUrl)$/])";

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'resources', 'circuits/build', 'test-results', 'playwright-report', 'server/db/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      'no-empty-pattern': 'off',
    },
  },
  // Layers and module surfaces of server/ (docs/ARCHITECTURE.md, "Layers"): kernel ← business
  // modules ← sync, hosted ← app; another module is used through its index.ts. Violations that
  // existed when the rule came are listed in eslint-suppressions.json (they may only go down).
  {
    files: ['server/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/include': ['server/**/*.ts'],
      'boundaries/ignore': ['server/db/migrations/**'],
      'boundaries/elements': [
        { type: 'app', mode: 'full', pattern: ['server/app.ts', 'server/modules.ts', 'server/main.ts', 'server/cli.ts', 'server/loops.ts', 'server/stop-on-exit.ts'] },
        { type: 'kernel', mode: 'full', pattern: ['server/context.ts', 'server/config.ts', 'server/secrets.ts', 'server/version.ts', 'server/db/**', 'server/http/**', 'server/events/**'] },
        { type: 'sync', mode: 'full', pattern: ['server/sync/**', 'server/hosted/**'] },
        { type: 'module', mode: 'folder', pattern: 'server/*', capture: ['name'] },
      ],
    },
    rules: {
      'boundaries/element-types': [
        'error',
        {
          default: 'disallow',
          rules: [
            { from: 'kernel', allow: ['kernel'] },
            { from: 'module', allow: ['kernel', 'module'] },
            { from: 'sync', allow: ['kernel', 'module', 'sync'] },
            { from: 'app', allow: ['kernel', 'module', 'sync', 'app'] },
          ],
        },
      ],
      // Another module only through its index.ts (inside a module, anything goes).
      'boundaries/entry-point': ['error', { default: 'disallow', rules: [{ target: ['module', 'kernel', 'sync', 'app'], allow: '**' }, { target: ['module'], disallow: '**' }, { target: ['module'], allow: 'index.ts' }] }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // The renderer calls the API only through renderer/src/api (typed from the OpenAPI document): a
    // `/api` path outside it is a call that escapes the types. The paths handed to the typed client
    // (`client.GET('/api/…')`, `uploadFile`, `apiUrl`) and in types (`ApiData<'/api/…'>`) are checked by tsc.
    files: ['renderer/src/**/*.{ts,tsx}'],
    ignores: ['renderer/src/api/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `Literal[value=${API_PATH}]:not(${TYPED_CALL} > Literal):not(TSLiteralType > Literal)`,
          message: 'Call the API through renderer/src/api (client.GET/POST/…, uploadFile, apiUrl), not with a /api path of its own.',
        },
        {
          selector: `TemplateElement[value.raw=${API_PATH}]`,
          message: 'Build /api URLs with renderer/src/api (client path parameters, or apiUrl for a link or an EventSource).',
        },
      ],
    },
  },
);
