/**
 * decisions.md: secrets never appear in output items, error messages or logs. n8n's own logger runs
 * at debug level here and every line it writes during failing and succeeding runs is searched for the
 * token, the client secret and any bearer header.
 */
process.env.N8N_LOG_LEVEL = 'debug';

import { runNode } from '../harness/engine';
import { sandboxCredentials, signedJwtCredentials } from '../harness/fixtures';
import { startSandbox, type Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
const logged: string[] = [];
const capture = (...args: unknown[]) => {
	logged.push(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
};
const spies: jest.SpyInstance[] = [];

beforeAll(async () => {
	sandbox = await startSandbox();
	for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
		spies.push(jest.spyOn(console, method).mockImplementation(capture));
	}
	spies.push(
		jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
			capture(String(chunk));
			return true;
		}),
	);
});
afterAll(async () => {
	for (const spy of spies) spy.mockRestore();
	await sandbox.close();
});

test('no secret reaches n8n’s logs, whether requests fail or succeed', async () => {
	const token = 'secret-token-0123456789';
	const secret = 'client-secret-9876543210';
	const runs = [
		// 401 from the service: a token it does not accept.
		runNode({ parameters: { resource: 'person', operation: 'create', firstName: 'A' }, credentials: sandboxCredentials(sandbox, { accessToken: token }) }),
		// 401 from a wrong signing secret.
		runNode({ parameters: { resource: 'person', operation: 'create', firstName: 'B' }, credentials: signedJwtCredentials(sandbox, { clientSecret: secret }) }),
	];
	const results = await Promise.all(runs);
	sandbox.inject({ status: 500, body: '{"error":"boom"}', count: 10 });
	results.push(
		await runNode({
			parameters: { resource: 'person', operation: 'getAll', returnAll: false, limit: 1, requestOptions: { maxAttempts: 2, initialRetryDelay: 1 } },
			credentials: sandboxCredentials(sandbox),
			onError: 'continueRegularOutput',
		}),
	);
	sandbox.clearFaults();
	results.push(
		await runNode({ parameters: { resource: 'person', operation: 'create', firstName: 'C' }, credentials: signedJwtCredentials(sandbox) }),
	);

	// The runs did fail and log: the check below searches real log output.
	expect(results[0].error?.message).toMatch(/HTTP 401/);
	expect(results[1].error?.message).toMatch(/HTTP 401/);
	expect(results[2].items[0].json.error).toMatch(/HTTP 500/);
	expect(results[3].error).toBeUndefined();
	expect(results[3].items[0].json.firstName).toBe('C');
	expect(logged.length).toBeGreaterThan(0);
	const everything = logged.join('\n') + JSON.stringify(results.map((result) => result.run.data));
	for (const forbidden of [token, secret, sandbox.token, sandbox.jwtSecret]) {
		expect(everything).not.toContain(forbidden);
	}
	expect(everything).not.toMatch(/Bearer\s+[A-Za-z0-9]/);
});
