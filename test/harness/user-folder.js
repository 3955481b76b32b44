// Jest's globalSetup and globalTeardown: one throwaway n8n user folder for the whole run (n8n-core writes
// a config with an encryption key there), shared by the workers through the environment, removed after.
const { mkdtempSync, rmSync } = require('fs');
const { tmpdir } = require('os');
const { join } = require('path');

module.exports = async function userFolder() {
	if (process.env.N8N_USER_FOLDER) return;
	const folder = mkdtempSync(join(tmpdir(), 'n8n-integration-service-test-'));
	process.env.N8N_USER_FOLDER = folder;
	globalThis.__n8nUserFolder = folder;
};

module.exports.teardown = async function removeUserFolder() {
	if (globalThis.__n8nUserFolder)
		rmSync(globalThis.__n8nUserFolder, { recursive: true, force: true });
};
