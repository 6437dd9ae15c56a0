import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The house style's boundaries (docs/decisions/011-module-doors-and-floors.md), as lint rules so
// they stay true: which folder may import which.
const root = import.meta.dirname;
const at = (p) => path.join(root, p);
const dirsIn = (p) =>
  fs
    .readdirSync(at(p), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
const serverModules = dirsIn('server/modules');
const webFeatures = dirsIn('web/features');

const serverZones = [
  {
    target: ['server/lib/**', 'server/plugins/**', 'server/db/**'].map(at),
    from: ['server/modules/**', 'server/jobs/**', 'server/cli/**', 'server/seed/**', 'server/{app,main}.ts'].map(at),
    message: ' lib, plugins and db stand below the modules: pass what they need in as arguments.',
  },
  {
    // Jobs, CLIs and the demo seed are callers like routes: through a module's service only.
    target: ['server/jobs/**', 'server/cli/**', 'server/seed/**'].map(at),
    from: [at('server/modules/**')],
    except: [at('server/modules/*/service.ts')],
    message: ' Reach a module through its service.ts.',
  },
  ...serverModules.flatMap((name) => [
    {
      target: [at(`server/modules/${name}/**`)],
      from: [at('server/modules/**'), at('server/{app,main}.ts')],
      except: [at(`server/modules/${name}/**`), at('server/modules/*/service.ts')],
      message: ' Another module is reached only through its service.ts.',
    },
    {
      target: [at(`server/modules/${name}/routes.ts`)],
      from: at('server/modules'),
      except: [`./${name}/service.ts`],
      message: ' A routes file calls its own service and nothing else of the modules.',
    },
  ]),
];

const webZones = [
  {
    target: ['web/components/**', 'web/lib/**'].map(at),
    from: ['web/features/**', 'web/app/**', 'web/scan/**'].map(at),
    message: ' The design system and web/lib import no feature and nothing from the app shell.',
  },
  {
    target: [at('web/features/**')],
    from: [at('web/app/**'), at('web/scan/**')],
    message: ' Features do not import the app shell; app-wide state lives in web/lib.',
  },
  ...webFeatures.map((name) => ({
    target: [at(`web/features/${name}/**`)],
    from: [at('web/features/**')],
    except: [at(`web/features/${name}/**`)],
    message: ' Features do not import each other: shared pieces live in web/components or web/lib.',
  })),
];

// Who may do what is decided in one place, server/modules/access (docs/decisions/054): elsewhere in
// the server a role is never compared, a rule of the access module is asked instead. Caught: a
// `.role` (or `role`) compared with a role's name or with another `.role`, `.includes(x.role)` or
// `.has(x.role)` on a list of roles, and `switch (x.role)`.
const ROLE_NAME = '/^(super_admin|it_admin|instructor|support_staff)$/';
const IS_ROLE = (side) => `:matches([${side}.property.name='role'], [${side}.name='role'])`;
const ROLE_MESSAGE =
  'Role comparisons live in server/modules/access, and the plain role questions the screens share in common/roles.ts (docs/decisions/054-access-module.md): ask a rule (isAdministrator, viewerScope, assertMayReadStudent…) or add one there.';
const roleComparisons = [
  `BinaryExpression[operator=/^[!=]==?$/][right.value=${ROLE_NAME}]${IS_ROLE('left')}`,
  `BinaryExpression[operator=/^[!=]==?$/][left.value=${ROLE_NAME}]${IS_ROLE('right')}`,
  `BinaryExpression[operator=/^[!=]==?$/]${IS_ROLE('left')}${IS_ROLE('right')}`,
  `CallExpression[callee.property.name=/^(includes|has)$/]${IS_ROLE('arguments.0')}`,
  `SwitchStatement${IS_ROLE('discriminant')}`,
].map((selector) => ({ selector, message: ROLE_MESSAGE }));

// no-cycle reads the imported files itself: tell it they are TypeScript.
const IMPORT_SETTINGS = { 'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] }, 'import-x/extensions': ['.ts', '.tsx', '.js'] };

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'server/db/migrations/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.test.ts', 'server/**/test-support.ts', 'server/test/**'],
    plugins: { 'import-x': importX },
    settings: IMPORT_SETTINGS,
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: serverZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The screens ask common/roles.ts the same questions the server's access rules do.
    files: ['server/**/*.ts', 'web/**/*.{ts,tsx}', 'common/**/*.ts'],
    ignores: ['server/modules/access/**', 'common/roles.ts', 'common/permissions.ts', '**/*.test.ts', 'server/**/test-support.ts', 'server/test/**'],
    rules: { 'no-restricted-syntax': ['error', ...roleComparisons] },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    ignores: ['web/**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: IMPORT_SETTINGS,
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: webZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // A file past 400 lines is split by what its parts do (README
    // "Files over 400 lines" names the exceptions: data and test support, not logic).
    files: ['server/**/*.ts', 'common/**/*.ts', 'web/**/*.{ts,tsx}', 'scripts/**/*.{ts,mjs}', 'bench/**/*.ts'],
    ignores: ['**/*.test.ts', 'server/seed/demo-school.ts', 'server/seed/catalog.ts', 'server/test/request-fuzzer.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The scan pages' script must stay one small file: anything it shared with the admin app
    // (web/lib, common/, a package) would become a chunk the phone downloads too (decision 028).
    files: ['web/scan/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!\\./)', message: 'The scan script imports nothing from outside web/scan (docs/decisions/028).' }] },
      ],
    },
  },
);
