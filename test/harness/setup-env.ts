// n8n-core reads its user folder when first required; point it at a throwaway folder, never ~/.n8n.
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'n8n-integration-service-test-'));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
// n8n logs every node error it sees; the fault suites provoke hundreds. N8N_LOG_LEVEL=debug shows them.
process.env.N8N_LOG_LEVEL ??= 'silent';
