/**
 * 'n8n-workflow' as the unit layer loads it (jest.unit.config.js maps the package name here). The
 * same package and the same classes and functions, but its errors, utils and interfaces, all that
 * the transport and the pure rules use, are loaded from their own files: the whole package (its
 * expression engine, zod schemas, transliteration tables) cost about a quarter of a second of CPU in
 * each test file, since jest loads every module afresh per file. Any other name loads the whole
 * package on first use, so nothing is missing, only later.
 */
const { dirname, join } = require('path');

const dist = join(dirname(require.resolve('n8n-workflow/package.json')), 'dist', 'cjs');
const light = {
	...require(join(dist, 'errors', 'index.js')),
	...require(join(dist, 'utils.js')),
	...require(join(dist, 'interfaces.js')),
};
let whole;

module.exports = new Proxy(light, {
	get(target, name) {
		if (name in target) return target[name];
		whole ??= require(join(dist, 'index.js'));
		return whole[name];
	},
});
