import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';

/** A string that starts with /api (esquery's regex cannot hold a slash, hence \x2F). */
const API_PATH = '/^\\x2Fapi(\\x2F|$)/';
/** The message of a deep import into another module (test/unit/module-boundaries.test.ts looks for it). */
const SURFACE = "Another module is used through its index.ts, not {{ to.element.fileInternalPath }} ({{ to.element.captured.name }}).";
/** server/'s layers as entity selectors (a layer is folders, and for kernel and app single files at server/'s root). */
const KERNEL = [{ element: { type: 'kernel' } }, { file: { categories: 'kernel' } }];
const MODULE = { element: { type: 'module' } };
const SYNC = { element: { type: 'sync' } };
const APP = { file: { categories: 'app' } };
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
      // Elements are folders; the single files at server/'s root are classified as files.
      'boundaries/elements': [
        { type: 'kernel', partialMatch: false, pattern: ['server/kernel', 'server/shared', 'server/blobs', 'server/db', 'server/http', 'server/events'] },
        { type: 'sync', partialMatch: false, pattern: ['server/sync', 'server/hosted'] },
        { type: 'module', partialMatch: false, pattern: 'server/*', capture: ['name'] },
      ],
      'boundaries/files': [
        { category: 'app', pattern: ['server/app.ts', 'server/modules.ts', 'server/main.ts', 'server/cli.ts', 'server/loops.ts', 'server/schema.ts', 'server/hosted/main.ts', 'server/hosted/cli.ts'] },
        { category: 'kernel', pattern: ['server/context.ts', 'server/config.ts', 'server/secrets.ts', 'server/version.ts', 'server/stop-on-exit.ts'] },
      ],
    },
    rules: {
      // One rule, two kinds of policy: the layer order (what is not allowed is refused), then
      // module surfaces (a later policy overrides an earlier one for the same import).
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: KERNEL, allow: { to: KERNEL } },
            { from: MODULE, allow: { to: [...KERNEL, MODULE] } },
            { from: SYNC, allow: { to: [...KERNEL, MODULE, SYNC] } },
            { from: APP, allow: { to: [...KERNEL, MODULE, SYNC, APP] } },
            // Another module only through its index.ts (inside a module, anything goes).
            { to: { element: { type: 'module', fileInternalPath: '!index.ts' } }, disallow: [{ from: { element: { type: '*' } } }, { from: { file: { categories: '*' } } }], message: SURFACE },
            { to: MODULE, allow: { dependency: { relationship: { to: 'internal' } } } },
            // The app's schema (drizzle-kit's migration diff, the kernel's table list) is every module's tables.ts.
            { from: { file: { path: 'server/schema.ts' } }, allow: { to: { element: { type: 'module', fileInternalPath: 'tables.ts' } } } },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // The UI bundles no server code: from server/ it takes types, and the pure rules in server/shared.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)server/(?!shared/)', allowTypeImports: true, message: 'The renderer imports only types from server/ (pure shared code lives in server/shared).' }] },
      ],
    },
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
