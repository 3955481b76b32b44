/**
 * decisions.md: secrets never appear in output items, error messages or logs. n8n's own logger runs
 * at debug level here and every line it writes during failing and succeeding runs is searched for the
 * token, the client secret and any bearer header.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';

// n8n's logger writes to a file here, at debug level, so what it logs can be read back whatever jest
// does with the console.
const logFile = join(mkdtempSync(join(tmpdir(), 'n8n-logs-')), 'n8n.log');
process.env.N8N_LOG_LEVEL = 'debug';
process.env.N8N_LOG_OUTPUT = 'file';
process.env.N8N_LOG_FILE_LOCATION = logFile;

import { runNode } from '../harness/engine';
import { sandboxCredentials, signedJwtCredentials, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));
afterAll(() => rmSync(dirname(logFile), { recursive: true, force: true }));

test('no secret reaches n8n’s logs, whether requests fail or succeed', async () => {
	const token = 'secret-token-0123456789';
	const secret = 'client-secret-9876543210';
	const runs = [
		// 401 from the service: a token it does not accept.
		runNode({
			parameters: { resource: 'person', operation: 'create', firstName: 'A' },
			credentials: sandboxCredentials(sandbox, { accessToken: token }),
		}),
		// 401 from a wrong signing secret.
		runNode({
			parameters: { resource: 'person', operation: 'create', firstName: 'B' },
			credentials: signedJwtCredentials(sandbox, { clientSecret: secret }),
		}),
	];
	const results = await Promise.all(runs);
	sandbox.inject({ status: 500, body: '{"error":"boom"}', count: 10 });
	results.push(
		await runNode({
			parameters: {
				resource: 'person',
				operation: 'getAll',
				returnAll: false,
				limit: 1,
				requestOptions: { maxAttempts: 2, initialRetryDelay: 1 },
			},
			credentials: sandboxCredentials(sandbox),
			onError: 'continueRegularOutput',
		}),
	);
	sandbox.clearFaults();
	results.push(
		await runNode({
			parameters: { resource: 'person', operation: 'create', firstName: 'C' },
			credentials: signedJwtCredentials(sandbox),
		}),
	);

	// The runs did fail and log: the check below searches real log output.
	expect(results[0].error?.message).toMatch(/HTTP 401/);
	expect(results[1].error?.message).toMatch(/HTTP 401/);
	expect(results[2].items[0].json.error).toMatch(/HTTP 500/);
	expect(results[3].error).toBeUndefined();
	expect(results[3].items[0].json.firstName).toBe('C');
	// n8n's file transport writes asynchronously: wait until the failures have reached the file.
	let log = '';
	for (let waited = 0; waited < 5000 && !/HTTP 401/.test(log); waited += 100) {
		await new Promise((resolve) => setTimeout(resolve, 100));
		log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
	}
	expect(log).toMatch(/Workflow execution started/);
	expect(log).toMatch(/HTTP 401/);
	const everything = log + JSON.stringify(results.map((result) => result.run.data));
	for (const forbidden of [token, secret, sandbox.token, sandbox.jwtSecret]) {
		expect(everything).not.toContain(forbidden);
	}
	expect(everything).not.toMatch(/Bearer\s+[A-Za-z0-9]/);
});
