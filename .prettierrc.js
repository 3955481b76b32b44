// The formatting n8n's node CLI gives a new community node package (`n8n-node new`), so this code reads
// like every other n8n node. Option reference: https://prettier.io/docs/options
module.exports = {
	useTabs: true,
	tabWidth: 2,
	printWidth: 100,
	semi: true,
	singleQuote: true,
	quoteProps: 'as-needed',
	trailingComma: 'all',
	bracketSpacing: true,
	arrowParens: 'always',
	endOfLine: 'lf',
};
