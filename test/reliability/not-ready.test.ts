/**
 * A 409 means the connected system's data is not ready yet; decisions.md says to retry after 30 to
 * 60 s. Without a Retry-After the node waits at least 30 Initial Retry Delays (30 s by default).
 */
import { runNode } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));

test('a 409 without Retry-After waits at least 30 Initial Retry Delays, then the Create succeeds once', async () => {
	sandbox.inject({ status: 409, body: '{"error":"initial sync in progress"}', count: 1 });
	const started = Date.now();
	const result = await runNode({
		parameters: {
			resource: 'person',
			operation: 'create',
			firstName: 'Ada',
			requestOptions: { initialRetryDelay: 20, maxAttempts: 3, maxTotalWait: 5 },
		},
		credentials: sandboxCredentials(sandbox),
	});
	const elapsed = Date.now() - started;

	expect(result.error).toBeUndefined();
	expect(sandbox.requests.map((request) => request.status)).toEqual([409, 200]);
	expect(sandbox.count('people')).toBe(1);
	expect(elapsed).toBeGreaterThanOrEqual(30 * 20);
});

test('a 409 whose wait would pass Max Total Retry Wait gives up at once and says so', async () => {
	sandbox.inject({ status: 409, body: '{"error":"initial sync in progress"}', count: 5 });
	const result = await runNode({
		parameters: {
			resource: 'borrower',
			operation: 'update',
			borrowerId: 'b-1',
			updateFields: { name: 'Ada' },
			requestOptions: { initialRetryDelay: 1000, maxAttempts: 5, maxTotalWait: 10 },
		},
		credentials: sandboxCredentials(sandbox),
	});

	expect(sandbox.requests).toHaveLength(1);
	expect(result.error?.message).toBe(
		'The connected system’s data is not ready yet (HTTP 409): initial sync in progress (gave up: waiting 30 s more would exceed the Max Total Retry Wait of 10 s) (item 0)',
	);
});
