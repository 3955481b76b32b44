/**
 * A refused connection never reached the service, so even a Create is retried; the service then
 * receives the person exactly once.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));

/** A port that nothing listens on (yet): bind, note the port, close. */
async function freePort(): Promise<number> {
	const probe = createServer();
	await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
	const { port } = probe.address() as AddressInfo;
	await new Promise<void>((resolve) => probe.close(() => resolve()));
	return port;
}

/** Person › Create of "Ada" with the CRM host on this port. */
async function createAdaOn(port: number, requestOptions: INodeParameters) {
	return await runNode({
		parameters: { resource: 'person', operation: 'create', firstName: 'Ada', requestOptions },
		credentials: sandboxCredentials(sandbox, { crmUrl: `http://127.0.0.1:${port}` }),
	});
}

test('a Create whose connection is refused is retried and reaches the service once it is up', async () => {
	const port = await freePort();
	const received: string[] = [];
	let late: Server | undefined;
	// The service comes up 300 ms after the first attempt was refused.
	const bringUp = new Promise<void>((resolve) => {
		setTimeout(() => {
			late = createServer((request, response) => {
				let body = '';
				request.on('data', (chunk) => (body += chunk));
				request.on('end', () => {
					received.push(`${request.method} ${request.url} ${body}`);
					response.writeHead(200, { 'content-type': 'application/json' });
					response.end(JSON.stringify({ id: 'p_late', firstName: 'Ada' }));
				});
			});
			late.listen(port, '127.0.0.1', () => resolve());
		}, 300);
	});

	const result = await createAdaOn(port, { maxAttempts: 6, initialRetryDelay: 200 });
	await bringUp;
	await new Promise<void>((resolve) => late!.close(() => resolve()));

	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json)).toEqual([{ id: 'p_late', firstName: 'Ada' }]);
	expect(received).toEqual(['POST /api/people {"firstName":"Ada"}']);
});

test('a Create whose connection stays refused gives up after Max Attempts and says it was never processed', async () => {
	const port = await freePort();
	const result = await createAdaOn(port, { maxAttempts: 3, initialRetryDelay: 10 });
	expect(result.error?.message).toBe(
		'Could not reach the service: the connection was refused (after 3 attempts) (item 0)',
	);
});

test('a mistyped LOS host (the credential test cannot check it) fails with an error naming that host and URL', async () => {
	const port = await freePort();
	const result = await runNode({
		parameters: {
			resource: 'borrower',
			operation: 'update',
			borrowerId: 'b-1',
			updateFields: { name: 'Jane' },
			requestOptions: { maxAttempts: 1 },
		},
		credentials: sandboxCredentials(sandbox, { losUrl: `http://127.0.0.1:${port}` }),
	});
	expect(result.error?.message).toBe(
		'Could not reach the service: the connection was refused (item 0)',
	);
	expect((result.error as { description?: string } | undefined)?.description).toContain(
		`PUT los http://127.0.0.1:${port}/api/borrowers/b-1`,
	);
	expect(sandbox.requests).toHaveLength(0);
});
