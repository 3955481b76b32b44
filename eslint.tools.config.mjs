// Lint for everything n8n's default config (eslint.config.mjs) is not meant for: the tests, the
// benchmark, the demo and the CI/build scripts, which run in Node and may use process, timers, the
// filesystem and the console. Plus the one rule we keep over the shipped code that n8n's default lacks:
// no import cycles. Run it with `npm run lint:tools`.
// The directories test/, bench/ and examples/ re-export this file as their own eslint.config.mjs, so
// `npm run lint` (n8n-node lint, with ESLint's config lookup from the linted file) uses these rules
// there too instead of the cloud rules for node code. So the `files` patterns below are relative
// ("**/…"), not rooted at the repository.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const shipped = ['nodes/**', 'credentials/**'];

export default tseslint.config(
	{ ignores: ['dist/**', 'build/**', 'coverage/**', 'node_modules/**', '.e2e-cache/**'] },
	{
		files: ['**/*.ts'],
		ignores: shipped,
		extends: [js.configs.recommended, tseslint.configs.recommended],
		languageOptions: { globals: { ...globals.node } },
		rules: {
			// Tests, the benchmark and the CLI tools report to a person through the console.
			'no-console': 'off',
			// They load the built package (dist/) and the e2e's CommonJS modules by a computed path, which
			// an import statement cannot name.
			'@typescript-eslint/no-require-imports': 'off',
			// `_`-prefixed names are deliberately unused (a destructured field dropped, a callback's slot).
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
			],
		},
	},
	{
		files: ['**/*.js', '**/*.mjs'],
		extends: [js.configs.recommended],
		languageOptions: { globals: { ...globals.node } },
		rules: {
			'no-console': 'off',
			// The e2e drivers clean up best-effort (kill a process that may be gone, try a JSON candidate):
			// an empty catch there means "failing is fine", and a comment in each would say only that.
			'no-empty': ['error', { allowEmptyCatch: true }],
			'no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
			],
		},
	},
	// The sandbox's own tests read fields of its JSON answers at any depth, which no type can know.
	{
		files: [
			'**/sandbox/sandbox.test.ts',
			'**/sandbox/crm-entities.test.ts',
			'**/sandbox/profiles.test.ts',
		],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
	// The CommonJS scripts (tests' e2e drivers, gulpfile, jest configs) use require and module.exports.
	{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' } },
	// No import cycles in the shipped code, type-only imports included: every layer points one way
	// (node → actions → transport → shared), so any file can be read without first reading the ones that
	// import it. n8n's default config has import-x but not this rule, and strict mode forbids adding to it.
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		languageOptions: { parser: tseslint.parser },
		plugins: { 'import-x': importX },
		settings: {
			'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
			'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
		},
		rules: { 'import-x/no-cycle': ['error', { maxDepth: Infinity }] },
	},
);
