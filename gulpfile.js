const { src, dest } = require('gulp');

// n8n reads node and credential icons from the built package, so the SVGs travel with dist/.
function buildIcons() {
	return src('icons/**/*.svg').pipe(dest('dist/icons'));
}

exports['build:icons'] = buildIcons;
exports.default = buildIcons;
