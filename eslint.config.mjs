// Lint with both n8n rule sets: the verified-community-node rules and the classic node/credential rules.
import tsParser from '@typescript-eslint/parser';
import communityNodes from '@n8n/eslint-plugin-community-nodes';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const classic = (name) => ({
	plugins: { 'n8n-nodes-base': n8nNodesBase },
	rules: n8nNodesBase.configs[name].rules,
});

export default [
	{ ignores: ['dist/**', 'build/**', 'node_modules/**', 'test/**', 'bench/**', 'examples/**', '*.js', '*.mjs'] },
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { project: './tsconfig.json', sourceType: 'module' } },
		...communityNodes.configs.recommended,
	},
	{
		files: ['credentials/**/*.ts'],
		languageOptions: { parser: tsParser },
		plugins: classic('credentials').plugins,
		rules: {
			...classic('credentials').rules,
			// The verified-node rules require a full documentation URL; this classic rule wants an n8n docs slug.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: { parser: tsParser },
		plugins: classic('nodes').plugins,
		rules: {
			...classic('nodes').rules,
			// The verified-node rules require NodeConnectionTypes.Main; these classic rules want the string 'main'.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	// No import cycles, type-only imports included: every layer points one way (node → actions →
	// transport → shared), so any file can be read without first reading the ones that import it.
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		languageOptions: { parser: tsParser },
		plugins: { 'import-x': importX },
		settings: {
			'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
			'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
		},
		rules: { 'import-x/no-cycle': ['error', { maxDepth: Infinity }] },
	},
	// package.json gets the verified-community-node rules too (author, peer dependencies, no runtime
	// dependencies...) and the classic community rules, parsed the way n8n's own scanner parses it.
	{ files: ['package.json'], ...communityNodes.configs.recommended },
	{ files: ['package.json'], ...classic('community') },
	{ files: ['package.json'], languageOptions: { parser: tsParser } },
];
