#!/usr/bin/env node
/**
 * prepublishOnly: `npm publish` runs only inside a GitHub Actions job that can prove where it runs
 * (an OIDC token is available: the job has `permissions: id-token: write`), which is what npm needs
 * to attach a provenance statement, and what n8n requires of a community node package.
 * Anywhere else it is refused with the way to release. `npm pack` does not run this.
 */
const inWorkflow =
	process.env.GITHUB_ACTIONS === 'true' && Boolean(process.env.ACTIONS_ID_TOKEN_REQUEST_URL);

if (!inWorkflow) {
	console.error(
		[
			'',
			'npm publish is refused here: this package is published only by its release workflow.',
			'n8n accepts community node packages only with an npm provenance statement, which npm can make only',
			'inside a GitHub Actions job with an OIDC token (GITHUB_ACTIONS=true and ACTIONS_ID_TOKEN_REQUEST_URL set).',
			'',
			'To release version X.Y.Z:',
			'  1. set "version" in package.json to X.Y.Z and move CHANGELOG.md\'s unreleased section under it; commit;',
			'  2. git tag vX.Y.Z && git push origin vX.Y.Z',
			'.github/workflows/publish.yml then runs the checks, names the repository in package.json',
			'(.ci/release-metadata.mjs) and runs npm publish --provenance --access public.',
			'To see what would be published: npm pack --dry-run',
			'',
		].join('\n'),
	);
	process.exit(1);
}
console.log('release guard: inside GitHub Actions with an OIDC token; publishing with provenance');
