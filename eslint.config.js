// ESLint flat config: recommended rules for JS, TypeScript and Vue, plus the import
// boundaries of STYLE.md (server/ is plain Node; only server/http/ sees HTTP; queries live in
// repositories; in the web client, api/ knows no page and lib/ calls no API module).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import vue from 'eslint-plugin-vue';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import patterns forbidden everywhere under server/. */
const serverForbidden = [
  {
    group: ['electron', 'electron/*'],
    message: 'server/ runs under plain Node and never imports Electron; main/ hosts the server instead.',
  },
  {
    // Any relative path through a folder named main, preload or renderer. A regex
    // rather than a resolved path: server/ has no folders of those names, so this is
    // both simple and safe (`./renderer.js` as a file name is still allowed).
    regex: String.raw`^\.{1,2}/(?:[^/]+/)*(?:main|preload|renderer)(?:/|$)`,
    message: 'server/ never imports from main/, preload/ or renderer/; dependencies point the other way.',
  },
];

/**
 * Import patterns additionally forbidden in the layers below server/http/ (core,
 * player, common, config, db, logging): they never see HTTP, and only the
 * composition root knows them all.
 */
const belowHttpForbidden = [
  {
    group: ['express', 'express/*', 'ws', 'ws/*', '@tus/server', '@tus/server/*'],
    message: 'Only server/http/ sees HTTP: express, ws and @tus/server belong there.',
  },
  {
    // A relative path through a folder named http (server/http/); `./http.module.js` is a file.
    regex: String.raw`^\.{1,2}/(?:[^/]+/)*http(?:/|$)`,
    message: 'server/http/ depends on this layer, never the other way: raise an AppError and let http/error-mapping.ts answer it.',
  },
  {
    regex: String.raw`^(?:\.\./)+app(?:\.[jt]s)?$`,
    message: 'The composition root (server/app.ts) wires the layers; no layer imports it.',
  },
];

/** Query building outside the data layer: a query belongs in a repository, which maps its rows. */
const queryOutsideRepositories = {
  imports: [
    {
      // Types to hold a database handle or a transaction are fine; `sql`, expression builders are not.
      group: ['kysely'],
      allowTypeImports: true,
      message: 'Only repositories (`*.repository.ts`), the database store and server/db/ build queries; call a repository function.',
    },
    {
      regex: String.raw`(?:^|/)db/(?:schema|sql-helpers)(?:\.js)?$`,
      allowTypeImports: true,
      message: 'Row shapes and SQL helpers belong to repositories (`*.repository.ts`), which map rows to domain objects.',
    },
  ],
  syntax: [
    {
      selector: 'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]',
      message: 'Queries live in repositories (`<feature>.repository.ts`); services call their functions and get domain objects.',
    },
  ],
};

/** Imports forbidden under renderer/src/api/: the API modules know no page. */
const rendererApiForbidden = [
  {
    regex: String.raw`\.vue$|^\.\./(?:views|components|composables|stores)(?:/|$)`,
    message: 'renderer/src/api/ calls the server and knows no component, view, composable or store; they import it instead.',
  },
];

/** Imports forbidden under renderer/src/lib/: plain helpers below the API modules and the pages. */
const rendererLibForbidden = [
  {
    regex: String.raw`\.vue$|^\.\./(?:views|components)(?:/|$)`,
    message: 'renderer/src/lib/ holds plain helpers and imports no component or view.',
  },
  {
    // Types of the answers are fine; the one HTTP helper too (ApiError, authHeaders).
    regex: String.raw`^\.\./api/(?!http(?:\.js)?$)`,
    allowTypeImports: true,
    message: 'renderer/src/lib/ calls no API module; a composable, store or view calls it and hands the result over.',
  },
];

const unusedVars = [
  'error',
  { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
];

export default defineConfig([
  globalIgnores([
    'dist/',
    'node_modules/',
    'coverage/',
    'release/',
    'test-results/',
    'playwright-report/',
    '.tmp/',
    // generated from server/openapi.yml by `npm run gen:api-types`; never edited by hand
    'renderer/src/api/schema.d.ts',
  ]),

  {
    name: 'pier/javascript-and-typescript',
    files: ['**/*.{js,mjs,cjs,ts,mts,cts}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { globals: globals.node },
    rules: { '@typescript-eslint/no-unused-vars': unusedVars },
  },

  {
    // TypeScript already reports undefined names, with knowledge of types.
    name: 'pier/typescript-no-undef',
    files: ['**/*.{ts,mts,cts,vue}'],
    rules: { 'no-undef': 'off' },
  },

  {
    name: 'pier/browser-globals',
    files: ['renderer/src/**/*.{ts,vue}', 'preload/**/*.ts'],
    languageOptions: { globals: globals.browser },
  },

  {
    name: 'pier/vue',
    files: ['renderer/src/**/*.vue'],
    extends: [js.configs.recommended, tseslint.configs.recommended, vue.configs['flat/recommended']],
    languageOptions: {
      globals: globals.browser,
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] },
    },
    rules: {
      // Layout is left to the author (no formatter is enforced in this project).
      ...vue.configs['no-layout-rules'].rules,
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': unusedVars,
    },
  },

  {
    name: 'pier/boundaries/server',
    files: ['server/**/*.{js,mjs,cjs,ts,mts,cts}'],
    rules: { 'no-restricted-imports': ['error', { patterns: serverForbidden }] },
  },

  {
    // Replaces (does not merge with) the rule above, so it repeats the server patterns.
    name: 'pier/boundaries/server-below-http',
    files: ['server/{core,player,common,config,db,logging}/**/*.{js,mjs,cjs,ts,mts,cts}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...serverForbidden, ...belowHttpForbidden] }] },
  },

  {
    // A query in a service, route or the player fails here; transactions (`db.transaction()`) stay with the services.
    name: 'pier/boundaries/server-queries',
    files: ['server/**/*.{js,mjs,cjs,ts,mts,cts}'],
    ignores: ['server/db/**', 'server/**/*.repository.ts', 'server/core/stores/database.store.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: queryOutsideRepositories.imports }],
      'no-restricted-syntax': ['error', ...queryOutsideRepositories.syntax],
    },
  },

  {
    // The main process loads nothing of the server: it runs in a utility process. Types
    // (the message protocol) and the pure constants of server/process/ are allowed.
    name: 'pier/boundaries/main',
    files: ['main/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^\.\./server/(?!process/)`,
              allowTypeImports: true,
              message: 'main/ runs the server in a utility process and loads none of its code: import types only (server/hosted-protocol.ts).',
            },
          ],
        },
      ],
    },
  },

  {
    name: 'pier/boundaries/renderer-api',
    files: ['renderer/src/api/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: rendererApiForbidden }] },
  },

  {
    name: 'pier/boundaries/renderer-lib',
    files: ['renderer/src/lib/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: rendererLibForbidden }] },
  },
]);
