import { existsSync, readFileSync } from 'fs';
import { dirname, join } from 'path';

export const PACKAGE_NAME = 'n8n-nodes-integration-service';

/** The package root, found from test/ or bench/ (under ts-jest) as well as from build/ (compiled tools). */
export function packageRoot(): string {
	let directory = __dirname;
	for (;;) {
		const manifest = join(directory, 'package.json');
		if (
			existsSync(manifest) &&
			(JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME
		) {
			return directory;
		}
		const parent = dirname(directory);
		if (parent === directory)
			throw new Error(`Cannot find the ${PACKAGE_NAME} package root above ${__dirname}`);
		directory = parent;
	}
}
