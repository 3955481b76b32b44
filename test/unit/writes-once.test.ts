/**
 * transport/errors.ts: a DELETE or POST whose request reached the service is never sent again after
 * an answer that may mean it was processed (a 5xx, a timeout, a dropped connection, an answer that is
 * not HTTP); only what certainly was not processed (refused, host not found, 429, 409) is retried.
 */
import fc from 'fast-check';

import {
	CREDENTIAL_DEFAULT,
	DEFAULT_SETTINGS,
	newRun,
	serviceRequest,
	startItem,
} from '../../nodes/IntegrationService/transport';
import type { Scripted } from './fakes';
import { credentials, fakeServiceContext } from './fakes';

const SEED = Number(process.env.PROPERTY_SEED ?? 3030);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);

function codeError(code: string, message = `${code} after the request was sent`): Error {
	return Object.assign(new Error(message), { code });
}

/** Failures that come after the request reached the service. */
const AFTER_SENT = fc.oneof(
	fc
		.integer({ min: 500, max: 599 })
		.map((status): Scripted => ({ raw: { statusCode: status, body: '{"error":"boom"}' } })),
	fc
		.constantFrom('ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT', 'HPE_INVALID_CONSTANT')
		.map((code): Scripted => ({ throws: codeError(code) })),
	fc.constant<Scripted>({ throws: new Error('socket hang up') }),
);

/** Failures where the service certainly did not process the request. */
const NOT_PROCESSED: Record<string, Scripted> = {
	'429': { raw: { statusCode: 429, headers: { 'retry-after': '0' }, body: '' } },
	'409': { raw: { statusCode: 409, body: '' } },
	ECONNREFUSED: { throws: codeError('ECONNREFUSED') },
	ENOTFOUND: { throws: codeError('ENOTFOUND') },
};

let tenants = 0;

async function send(method: 'DELETE' | 'POST', script: Scripted[]) {
	// Each run its own origin: its own tenant, so no 429 pause of another run applies.
	const fake = fakeServiceContext(script, credentials({ crmUrl: `https://crm${++tenants}.test` }));
	const run = startItem(
		newRun({ ...DEFAULT_SETTINGS, maxRequestsPerSecond: 0, initialDelayMs: 0, maxAttempts: 5 }),
	);
	const outcome = await serviceRequest
		.call(
			fake.ctx,
			0,
			{
				method,
				host: 'crm',
				connection: CREDENTIAL_DEFAULT,
				path: ['notes', 'n_1'],
				...(method === 'POST' ? { body: { body: 'x' } } : {}),
			},
			run,
		)
		.catch((error: Error) => error);
	return { outcome, sent: fake.sent };
}

test('property: any failure after the request was sent, a DELETE or POST is sent once and says it may have been processed', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom('DELETE' as const, 'POST' as const),
			AFTER_SENT,
			async (method, failure) => {
				const { outcome, sent } = await send(method, [failure, { id: 'n_1' }]);
				expect(sent).toHaveLength(1);
				expect(outcome).toBeInstanceOf(Error);
				expect((outcome as Error).message).toMatch(
					/\(not sent twice: the service may already have processed it; check before running it again\)/,
				);
			},
		),
		{ seed: SEED, numRuns: RUNS },
	);
});

test.each(Object.keys(NOT_PROCESSED))(
	'DELETE after %s (certainly not processed) is sent again',
	async (name) => {
		const { outcome, sent } = await send('DELETE', [NOT_PROCESSED[name], {}]);
		expect(sent.map((request) => request.method)).toEqual(['DELETE', 'DELETE']);
		expect(outcome).not.toBeInstanceOf(Error);
	},
);
