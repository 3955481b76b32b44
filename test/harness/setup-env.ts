// n8n-core reads its user folder when first required; point it at a throwaway folder, never ~/.n8n.
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

if (!process.env.N8N_USER_FOLDER) {
	const folder = mkdtempSync(join(tmpdir(), 'n8n-integration-service-test-'));
	process.env.N8N_USER_FOLDER = folder;
	// n8n-core writes a config with an encryption key there: nothing of it is left behind.
	process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
// n8n logs every node error it sees; the fault suites provoke hundreds. N8N_LOG_LEVEL=debug shows them.
process.env.N8N_LOG_LEVEL ??= 'silent';
